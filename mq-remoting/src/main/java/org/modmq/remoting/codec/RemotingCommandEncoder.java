package org.modmq.remoting.codec;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.MessageToMessageEncoder;
import java.util.List;
import org.modmq.remoting.protocol.RemotingCommand;
import org.modmq.remoting.protocol.SerializeType;

/**
 * Encodes a {@link RemotingCommand} in its {@link RemotingCommand#serializeType()} into one frame.
 * A {@code byte[]} body is copied behind the header; a {@link ByteBuf} body is detached from the
 * command and passed on as a second buffer without copying. Ownership: both output buffers belong
 * to the outbound pipeline, which releases them after writing (or on failure).
 *
 * <p>Stateless and {@link ChannelHandler.Sharable}.
 */
@ChannelHandler.Sharable
public final class RemotingCommandEncoder extends MessageToMessageEncoder<RemotingCommand> {

    /** Creates the encoder. */
    public RemotingCommandEncoder() {
        super(RemotingCommand.class);
    }

    @Override
    protected void encode(ChannelHandlerContext ctx, RemotingCommand command, List<Object> out) {
        ByteBuf bodyBuf = command.detachBodyBuf();
        ByteBuf frame = ctx.alloc().buffer(256 + (bodyBuf == null ? command.body().length : 0));
        try {
            encodeFrame(command, bodyBuf == null ? command.body().length : bodyBuf.readableBytes(), frame);
            if (bodyBuf == null) {
                frame.writeBytes(command.body());
            }
        } catch (RuntimeException e) {
            frame.release();
            if (bodyBuf != null) {
                bodyBuf.release();
            }
            throw e;
        }
        out.add(frame);
        if (bodyBuf != null) {
            out.add(bodyBuf);
        }
    }

    /**
     * Writes length field, header-length word and header for a body of {@code bodyLength} bytes.
     *
     * @param command the command
     * @param bodyLength the number of body bytes that will follow
     * @param frame where to write; not released here
     */
    public static void encodeFrame(RemotingCommand command, int bodyLength, ByteBuf frame) {
        int start = frame.writerIndex();
        frame.writeInt(0);
        frame.writeInt(0);
        if (command.serializeType() == SerializeType.JSON) {
            JsonHeaderCodec.encode(command, frame);
        } else {
            RocketMqHeaderCodec.encode(command, frame);
        }
        int headerLength = frame.writerIndex() - start - 8;
        frame.setInt(start, RemotingFrameLayout.HEADER_LENGTH_WORD_SIZE + headerLength + bodyLength);
        frame.setInt(start + 4, RemotingFrameLayout.headerLengthWord(command.serializeType().code(), headerLength));
    }
}
