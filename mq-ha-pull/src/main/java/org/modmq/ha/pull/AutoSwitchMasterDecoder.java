package org.modmq.ha.pull;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.ByteToMessageDecoder;
import io.netty.handler.codec.CorruptedFrameException;
import java.util.ArrayList;
import java.util.List;
import org.modmq.api.spi.replication.EpochEntry;

/**
 * Splits a master's AutoSwitch byte stream into {@link MasterFrame}s ({@link AutoSwitchMasterLayout}).
 * Refuses (with a {@link CorruptedFrameException}, discarding every later byte) a state other than
 * HANDSHAKE or TRANSFER, a body size outside {@code 0..}{@link AutoSwitchMasterLayout#MAX_BODY}, a
 * handshake body that is not whole entries, and epoch entries that are not positive, increasing epochs
 * with non-decreasing, non-negative starts.
 *
 * <p>Threads: the channel's event loop. A {@link MasterFrame.Transfer}'s body is a retained slice of the
 * input: whoever receives the frame releases it.
 */
final class AutoSwitchMasterDecoder extends ByteToMessageDecoder {

    private boolean failed;

    @Override
    protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
        if (failed) {
            in.skipBytes(in.readableBytes());
            return;
        }
        if (in.readableBytes() < AutoSwitchMasterLayout.HANDSHAKE_HEADER_LENGTH) {
            return;
        }
        int at = in.readerIndex();
        int code = in.getInt(at + AutoSwitchMasterLayout.STATE_OFFSET);
        int bodySize = in.getInt(at + AutoSwitchMasterLayout.BODY_SIZE_OFFSET);
        AutoSwitchState state = AutoSwitchState.fromWire(code);
        if (state != AutoSwitchState.HANDSHAKE && state != AutoSwitchState.TRANSFER) {
            throw fail(in, "a frame in state " + code + " (" + state + "): a master sends only HANDSHAKE (1) "
                    + "and TRANSFER (2)");
        }
        if (bodySize < 0 || bodySize > AutoSwitchMasterLayout.MAX_BODY) {
            throw fail(in, "a body size " + bodySize + " outside 0.." + AutoSwitchMasterLayout.MAX_BODY);
        }
        int header = state == AutoSwitchState.HANDSHAKE ? AutoSwitchMasterLayout.HANDSHAKE_HEADER_LENGTH
                : AutoSwitchMasterLayout.TRANSFER_HEADER_LENGTH;
        if (in.readableBytes() < header + bodySize) {
            return;
        }
        long offset = in.getLong(at + AutoSwitchMasterLayout.OFFSET_OFFSET);
        int epoch = in.getInt(at + AutoSwitchMasterLayout.EPOCH_OFFSET);
        if (state == AutoSwitchState.HANDSHAKE) {
            out.add(handshake(in, at, bodySize, offset, epoch));
            in.skipBytes(header + bodySize);
            return;
        }
        long epochStart = in.getLong(at + AutoSwitchMasterLayout.EPOCH_START_OFFSET);
        long confirm = in.getLong(at + AutoSwitchMasterLayout.CONFIRM_OFFSET);
        if (bodySize > 0 && (offset < 0 || epoch <= 0 || epochStart < 0 || epochStart > offset + bodySize)) {
            throw fail(in, "a transfer of " + bodySize + " bytes at offset " + offset + " in epoch " + epoch
                    + " starting at " + epochStart);
        }
        in.skipBytes(header);
        out.add(new MasterFrame.Transfer(offset, epoch, epochStart, confirm, in.readRetainedSlice(bodySize)));
    }

    private MasterFrame.Handshake handshake(ByteBuf in, int at, int bodySize, long maxOffset, int lastEpoch) {
        if (bodySize % AutoSwitchMasterLayout.EPOCH_ENTRY_LENGTH != 0) {
            throw fail(in, "a handshake body of " + bodySize + " bytes, not a multiple of "
                    + AutoSwitchMasterLayout.EPOCH_ENTRY_LENGTH);
        }
        if (maxOffset < 0) {
            throw fail(in, "a handshake with a negative max offset " + maxOffset);
        }
        List<EpochEntry> entries = new ArrayList<>(bodySize / AutoSwitchMasterLayout.EPOCH_ENTRY_LENGTH);
        int first = at + AutoSwitchMasterLayout.HANDSHAKE_HEADER_LENGTH;
        for (int i = 0; i < bodySize; i += AutoSwitchMasterLayout.EPOCH_ENTRY_LENGTH) {
            int epoch = in.getInt(first + i);
            long start = in.getLong(first + i + 4);
            EpochEntry previous = entries.isEmpty() ? null : entries.get(entries.size() - 1);
            if (epoch <= 0 || start < 0 || previous != null
                    && (epoch <= previous.epoch() || start < previous.startOffset())) {
                throw fail(in, "a handshake whose epoch entry " + epoch + "-" + start + " does not follow "
                        + previous);
            }
            entries.add(new EpochEntry(epoch, start));
        }
        int expectedLast = entries.isEmpty() ? -1 : entries.get(entries.size() - 1).epoch();
        if (lastEpoch != expectedLast) {
            throw fail(in, "a handshake naming last epoch " + lastEpoch + " but entries ending in " + expectedLast);
        }
        return new MasterFrame.Handshake(maxOffset, lastEpoch, entries);
    }

    private CorruptedFrameException fail(ByteBuf in, String what) {
        failed = true;
        in.skipBytes(in.readableBytes());
        return new CorruptedFrameException("master sent " + what);
    }
}
