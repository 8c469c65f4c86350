package org.modmq.ha.push.wire;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.ByteToMessageDecoder;
import io.netty.handler.codec.CorruptedFrameException;
import java.util.List;

/**
 * Cuts the byte stream into {@link PushFrame}s; an unknown type or a body longer than the limit fails
 * the channel with a {@link CorruptedFrameException}. One instance per channel.
 */
public final class PushFrameDecoder extends ByteToMessageDecoder {

    private final int maxBody;

    public PushFrameDecoder(int maxBody) {
        this.maxBody = maxBody;
    }

    @Override
    protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
        while (in.readableBytes() >= PushFrameLayout.HEADER_LENGTH) {
            int start = in.readerIndex();
            byte type = in.getByte(start);
            int length = in.getInt(start + PushFrameLayout.LENGTH_POSITION);
            if (!PushFrameLayout.known(type)) {
                throw new CorruptedFrameException("unknown push frame type " + type);
            }
            if (length < 0 || length > maxBody) {
                throw new CorruptedFrameException("push frame body of " + length + " bytes, limit " + maxBody);
            }
            if (in.readableBytes() < PushFrameLayout.HEADER_LENGTH + length) {
                return;
            }
            long offset = in.getLong(start + 1);
            in.skipBytes(PushFrameLayout.HEADER_LENGTH);
            out.add(new PushFrame(type, offset, in.readRetainedSlice(length)));
        }
    }
}
