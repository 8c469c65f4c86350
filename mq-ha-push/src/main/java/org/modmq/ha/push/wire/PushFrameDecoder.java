package org.modmq.ha.push.wire;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.ByteToMessageDecoder;
import io.netty.handler.codec.CorruptedFrameException;
import java.util.List;

/**
 * Cuts the byte stream into {@link PushFrame}s. An unknown type, a body longer than the limit or a body
 * length impossible for its type ({@link PushFrameLayout#plausibleLength}) fails the channel with a
 * {@link CorruptedFrameException} before the body is awaited, and every later byte is discarded (the
 * session closes the connection). One instance per channel; each frame's
 * body is a retained slice that the next handler releases.
 */
public final class PushFrameDecoder extends ByteToMessageDecoder {

    private final int maxBody;
    private boolean failed;

    public PushFrameDecoder(int maxBody) {
        this.maxBody = maxBody;
    }

    @Override
    protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
        if (failed) {
            // the stream lost its framing: nothing after the bad header is a frame
            in.skipBytes(in.readableBytes());
            return;
        }
        while (in.readableBytes() >= PushFrameLayout.HEADER_LENGTH) {
            int start = in.readerIndex();
            byte type = in.getByte(start);
            int length = in.getInt(start + PushFrameLayout.LENGTH_POSITION);
            if (!PushFrameLayout.known(type)) {
                throw fail(in, "unknown push frame type " + type);
            }
            if (length < 0 || length > maxBody) {
                throw fail(in, "push frame body of " + length + " bytes, limit " + maxBody);
            }
            if (!PushFrameLayout.plausibleLength(type, length)) {
                throw fail(in, "push frame type " + type + " cannot have a body of " + length + " bytes");
            }
            if (in.readableBytes() < PushFrameLayout.HEADER_LENGTH + length) {
                return;
            }
            long offset = in.getLong(start + PushFrameLayout.OFFSET_POSITION);
            if (offset < 0) {
                throw fail(in, "push frame type " + type + " at negative offset " + offset);
            }
            in.skipBytes(PushFrameLayout.HEADER_LENGTH);
            out.add(new PushFrame(type, offset, in.readRetainedSlice(length)));
        }
    }

    private CorruptedFrameException fail(ByteBuf in, String message) {
        failed = true;
        in.skipBytes(in.readableBytes());
        return new CorruptedFrameException(message);
    }
}
