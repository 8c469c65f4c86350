package org.modmq.remoting.codec;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.ByteToMessageDecoder;
import java.util.List;
import org.modmq.remoting.protocol.RemotingCommand;
import org.modmq.remoting.protocol.SerializeType;

/**
 * Cuts the inbound byte stream into frames (see {@link RemotingFrameLayout}) and decodes each into a
 * {@link RemotingCommand} whose body is copied into a {@code byte[]}.
 *
 * <p>The length {@code L} is checked against the maximum as soon as its 4 bytes arrive, before any
 * of the body is awaited. A broken frame throws {@link RemotingFrameException} once; every byte that
 * arrives afterwards is discarded, so the handler that closes the channel logs exactly one line.
 *
 * <p>One instance per channel (not sharable); runs on the channel's event loop. Inbound buffers are
 * owned and released by {@link ByteToMessageDecoder}.
 */
public final class RemotingFrameDecoder extends ByteToMessageDecoder {

    private final int maxFrameLength;
    private boolean failed;

    /** @param maxFrameLength largest accepted {@code L}, in bytes */
    public RemotingFrameDecoder(int maxFrameLength) {
        if (maxFrameLength < 8) {
            throw new IllegalArgumentException("maxFrameLength must be >= 8: " + maxFrameLength);
        }
        this.maxFrameLength = maxFrameLength;
    }

    @Override
    protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
        if (failed) {
            in.skipBytes(in.readableBytes());
            return;
        }
        if (in.readableBytes() < RemotingFrameLayout.LENGTH_FIELD_SIZE) {
            return;
        }
        int start = in.readerIndex();
        int length = in.getInt(start);
        if (length < RemotingFrameLayout.HEADER_LENGTH_WORD_SIZE || length > maxFrameLength) {
            throw fail(in, "bad frame length " + length + " (allowed 4.." + maxFrameLength + ")");
        }
        if (in.readableBytes() < RemotingFrameLayout.LENGTH_FIELD_SIZE + length) {
            return;
        }
        int word = in.getInt(start + RemotingFrameLayout.LENGTH_FIELD_SIZE);
        SerializeType type = SerializeType.fromCode(RemotingFrameLayout.serializeTypeOf(word));
        int headerLength = RemotingFrameLayout.headerLengthOf(word);
        if (type == null) {
            throw fail(in, "unknown serialize type " + RemotingFrameLayout.serializeTypeOf(word));
        }
        if (headerLength > length - RemotingFrameLayout.HEADER_LENGTH_WORD_SIZE) {
            throw fail(in, "header length " + headerLength + " exceeds frame length " + length);
        }
        in.skipBytes(RemotingFrameLayout.LENGTH_FIELD_SIZE + RemotingFrameLayout.HEADER_LENGTH_WORD_SIZE);
        ByteBuf header = in.readSlice(headerLength);
        int bodyLength = length - RemotingFrameLayout.HEADER_LENGTH_WORD_SIZE - headerLength;
        RemotingCommand command;
        try {
            command = type == SerializeType.JSON ? JsonHeaderCodec.decode(header) : RocketMqHeaderCodec.decode(header);
        } catch (RemotingFrameException e) {
            failed = true;
            in.skipBytes(in.readableBytes());
            throw e;
        }
        byte[] body = new byte[bodyLength];
        in.readBytes(body);
        out.add(command.withBody(body));
    }

    private RemotingFrameException fail(ByteBuf in, String message) {
        failed = true;
        in.skipBytes(in.readableBytes());
        return new RemotingFrameException(message);
    }
}
