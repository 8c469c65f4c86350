package org.modmq.remoting.codec;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.ByteToMessageDecoder;
import io.netty.handler.codec.DecoderException;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
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
 * <p>Memory: nothing is allocated for a frame before its bytes arrive (they accumulate as they come).
 * The bytes of the frame not yet complete count against a {@link FrameMemoryBudget} shared by the
 * server's connections; a connection whose next bytes do not fit fails instead of growing, and a frame
 * not complete within the receive timeout fails too, so half-sent frames cannot hold memory for ever.
 *
 * <p>One instance per channel (not sharable); runs on the channel's event loop. Inbound buffers are
 * owned and released by {@link ByteToMessageDecoder}.
 */
public final class RemotingFrameDecoder extends ByteToMessageDecoder {

    private final int maxFrameLength;
    private final FrameMemoryBudget budget;
    private final long receiveTimeoutNanos;
    private boolean failed;
    /** Bytes of the incomplete frame counted against the budget. */
    private long held;
    /** Counts frames, so a timeout scheduled for one frame ignores a later one. */
    private long frameSequence;
    private ScheduledFuture<?> receiveDeadline;

    /** A decoder without a shared bound or a receive timeout (one frame is still at most {@code maxFrameLength}). */
    public RemotingFrameDecoder(int maxFrameLength) {
        this(maxFrameLength, FrameMemoryBudget.unbounded(), 0);
    }

    /**
     * @param maxFrameLength      largest accepted {@code L}, in bytes
     * @param budget              the bound on bytes of partly received frames, shared by a server's connections
     * @param receiveTimeoutNanos how long a started frame may take to arrive completely; 0 = no limit
     */
    public RemotingFrameDecoder(int maxFrameLength, FrameMemoryBudget budget, long receiveTimeoutNanos) {
        if (maxFrameLength < 8) {
            throw new IllegalArgumentException("maxFrameLength must be >= 8: " + maxFrameLength);
        }
        if (receiveTimeoutNanos < 0) {
            throw new IllegalArgumentException("receiveTimeoutNanos must not be negative: " + receiveTimeoutNanos);
        }
        this.maxFrameLength = maxFrameLength;
        this.budget = Objects.requireNonNull(budget, "budget");
        this.receiveTimeoutNanos = receiveTimeoutNanos;
    }

    @Override
    protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
        if (failed) {
            in.skipBytes(in.readableBytes());
            return;
        }
        if (in.readableBytes() < RemotingFrameLayout.LENGTH_FIELD_SIZE) {
            hold(ctx, in, in.readableBytes());
            return;
        }
        int start = in.readerIndex();
        int length = in.getInt(start);
        if (length < RemotingFrameLayout.HEADER_LENGTH_WORD_SIZE || length > maxFrameLength) {
            throw fail(in, "bad frame length " + length + " (allowed 4.." + maxFrameLength + ")");
        }
        if (in.readableBytes() < RemotingFrameLayout.LENGTH_FIELD_SIZE + length) {
            hold(ctx, in, in.readableBytes());
            return;
        }
        frameComplete();
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

    /** Counts {@code bytes} of the incomplete frame against the budget; fails the connection when they do not fit. */
    private void hold(ChannelHandlerContext ctx, ByteBuf in, long bytes) {
        if (bytes == 0) {
            return;
        }
        long more = bytes - held;
        if (more > 0) {
            if (!budget.tryAcquire(more)) {
                throw fail(in, "partly received frames already hold " + budget.used() + " bytes in this process"
                        + " (limit " + budget.limit() + "); no room for the " + bytes + " bytes received so far of this"
                        + " connection's frame");
            }
            held = bytes;
        }
        if (receiveDeadline == null && receiveTimeoutNanos > 0) {
            long frame = frameSequence;
            receiveDeadline = ctx.executor().schedule(() -> receiveTimedOut(ctx, frame), receiveTimeoutNanos,
                    TimeUnit.NANOSECONDS);
        }
    }

    private void receiveTimedOut(ChannelHandlerContext ctx, long frame) {
        receiveDeadline = null;
        if (frame != frameSequence || failed || held == 0) {
            return;
        }
        failed = true;
        releaseHeld();
        ctx.fireExceptionCaught(new DecoderException(new RemotingFrameException("frame not complete within "
                + TimeUnit.NANOSECONDS.toMillis(receiveTimeoutNanos) + " ms")));
    }

    private void frameComplete() {
        frameSequence++;
        releaseHeld();
        if (receiveDeadline != null) {
            receiveDeadline.cancel(false);
            receiveDeadline = null;
        }
    }

    private void releaseHeld() {
        if (held > 0) {
            budget.release(held);
            held = 0;
        }
    }

    @Override
    protected void handlerRemoved0(ChannelHandlerContext ctx) {
        frameComplete();
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
        frameComplete();
        super.channelInactive(ctx);
    }

    private RemotingFrameException fail(ByteBuf in, String message) {
        failed = true;
        releaseHeld();
        in.skipBytes(in.readableBytes());
        return new RemotingFrameException(message);
    }
}
