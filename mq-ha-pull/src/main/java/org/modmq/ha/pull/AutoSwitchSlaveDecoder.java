package org.modmq.ha.pull;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.ByteToMessageDecoder;
import io.netty.handler.codec.CorruptedFrameException;
import java.util.List;

/**
 * Splits a replica's AutoSwitch byte stream into {@link SlaveFrame}s: the leading state code says which
 * frame follows and how long it is ({@link AutoSwitchSlaveLayout}). Anything else (an unknown state, a
 * flag other than 0 or 1, a negative broker id or offset) raises a {@link CorruptedFrameException} and
 * every later byte is discarded; the session closes the connection.
 *
 * <p>Threads: the channel's event loop. The input buffer is Netty's; the frames hold no buffer.
 */
final class AutoSwitchSlaveDecoder extends ByteToMessageDecoder {

    private boolean failed;

    @Override
    protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
        if (failed) {
            in.skipBytes(in.readableBytes());
            return;
        }
        if (in.readableBytes() < 4) {
            return;
        }
        int at = in.readerIndex();
        int code = in.getInt(at + AutoSwitchSlaveLayout.STATE_OFFSET);
        AutoSwitchState state = AutoSwitchState.fromWire(code);
        if (state == AutoSwitchState.HANDSHAKE) {
            if (in.readableBytes() >= AutoSwitchSlaveLayout.HANDSHAKE_LENGTH) {
                out.add(handshake(in, at));
                in.skipBytes(AutoSwitchSlaveLayout.HANDSHAKE_LENGTH);
            }
        } else if (state == AutoSwitchState.TRANSFER) {
            if (in.readableBytes() >= AutoSwitchSlaveLayout.REPORT_LENGTH) {
                long offset = in.getLong(at + AutoSwitchSlaveLayout.MAX_OFFSET_OFFSET);
                if (offset < 0) {
                    throw fail(in, "a report of a negative offset " + offset);
                }
                out.add(new SlaveFrame.Report(offset));
                in.skipBytes(AutoSwitchSlaveLayout.REPORT_LENGTH);
            }
        } else {
            throw fail(in, "a frame in state " + code + " (" + state + "): a replica sends only HANDSHAKE (1) "
                    + "and TRANSFER (2)");
        }
    }

    private SlaveFrame.Handshake handshake(ByteBuf in, int at) {
        short fromLastFile = in.getShort(at + AutoSwitchSlaveLayout.SYNC_FROM_LAST_FILE_OFFSET);
        short learner = in.getShort(at + AutoSwitchSlaveLayout.ASYNC_LEARNER_OFFSET);
        long brokerId = in.getLong(at + AutoSwitchSlaveLayout.BROKER_ID_OFFSET);
        if (!flag(fromLastFile) || !flag(learner)) {
            throw fail(in, "a handshake with flags isSyncFromLastFile=" + fromLastFile + ", isAsyncLearner="
                    + learner + " (0 or 1 expected)");
        }
        if (brokerId < 0) {
            throw fail(in, "a handshake with a negative broker id " + brokerId);
        }
        return new SlaveFrame.Handshake(fromLastFile == 1, learner == 1, brokerId);
    }

    private static boolean flag(short value) {
        return value == 0 || value == 1;
    }

    private CorruptedFrameException fail(ByteBuf in, String what) {
        failed = true;
        in.skipBytes(in.readableBytes());
        return new CorruptedFrameException("replica sent " + what);
    }
}
