package org.modmq.ha.pull;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelPipeline;
import io.netty.util.ReferenceCountUtil;
import io.netty.util.concurrent.ScheduledFuture;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.modmq.api.spi.replication.HaPeerProof;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@code haAuthSecret} exchange ({@link HaPeerProof}) in front of one HA connection, after TLS when
 * that is on. The strategy's own handlers are added only once both sides have proved the secret, and see
 * {@code channelActive} then, so not one protocol byte is read or written before. A wrong proof, bytes that
 * are not the exchange, or silence for {@code timeout} close the connection with a WARN naming the peer.
 * Event loop only.
 */
final class HaAuthGate extends ChannelInboundHandlerAdapter {

    private static final Logger LOG = LoggerFactory.getLogger(HaAuthGate.class);

    private enum Step { CHALLENGE, PROOF, ANSWER, PASSED, CLOSED }

    private final HaPeerProof.Acceptor acceptor;
    private final HaPeerProof.Dialer dialer;
    private final Duration timeout;
    private final Consumer<ChannelPipeline> protocol;
    private Step step;
    private ByteBuf pending = Unpooled.EMPTY_BUFFER;
    private ScheduledFuture<?> deadline;
    private boolean started;

    private HaAuthGate(HaPeerProof proof, boolean accepting, Duration timeout, Consumer<ChannelPipeline> protocol) {
        this.acceptor = accepting ? proof.acceptor() : null;
        this.dialer = accepting ? null : proof.dialer();
        this.step = accepting ? Step.PROOF : Step.CHALLENGE;
        this.timeout = Objects.requireNonNull(timeout, "timeout");
        this.protocol = Objects.requireNonNull(protocol, "protocol");
    }

    /** The master's side of an accepted connection; {@code protocol} adds the session's handlers. */
    static HaAuthGate accepting(HaPeerProof proof, Duration timeout, Consumer<ChannelPipeline> protocol) {
        return new HaAuthGate(proof, true, timeout, protocol);
    }

    /** The replica's side of a connection it dialed. */
    static HaAuthGate dialing(HaPeerProof proof, Duration timeout, Consumer<ChannelPipeline> protocol) {
        return new HaAuthGate(proof, false, timeout, protocol);
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        if (ctx.channel().isActive()) {
            start(ctx);
        }
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
        // Held back: the protocol's handlers are not there yet and see channelActive once the peer is proved.
        start(ctx);
    }

    private void start(ChannelHandlerContext ctx) {
        if (started) {
            return;
        }
        started = true;
        deadline = ctx.executor().schedule(() -> refuse(ctx, "sent no " + (acceptor != null ? "proof" : "challenge")
                + " within " + timeout.toMillis() + " ms"), timeout.toMillis(), TimeUnit.MILLISECONDS);
        if (acceptor != null) {
            ctx.writeAndFlush(Unpooled.wrappedBuffer(acceptor.challenge()));
        }
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (step == Step.PASSED || step == Step.CLOSED || !(msg instanceof ByteBuf in)) {
            ReferenceCountUtil.release(msg);
            return;
        }
        ByteBuf joined = ctx.alloc().buffer(pending.readableBytes() + in.readableBytes());
        joined.writeBytes(pending).writeBytes(in);
        pending.release();
        in.release();
        pending = joined;
        while ((step == Step.CHALLENGE || step == Step.PROOF || step == Step.ANSWER)
                && pending.readableBytes() >= needed()) {
            byte[] chunk = new byte[needed()];
            pending.readBytes(chunk);
            if (!advance(ctx, chunk)) {
                return;
            }
        }
        if (step == Step.PASSED) {
            pass(ctx);
        }
    }

    private int needed() {
        return switch (step) {
            case CHALLENGE -> HaPeerProof.CHALLENGE_BYTES;
            case PROOF -> HaPeerProof.PROOF_BYTES;
            case ANSWER -> HaPeerProof.ANSWER_BYTES;
            case PASSED, CLOSED -> 0;
        };
    }

    private boolean advance(ChannelHandlerContext ctx, byte[] chunk) {
        switch (step) {
            case PROOF -> {
                Optional<byte[]> answer = acceptor.verify(chunk);
                if (answer.isEmpty()) {
                    return refuse(ctx, "did not prove haAuthSecret (a wrong secret, or none)");
                }
                ctx.writeAndFlush(Unpooled.wrappedBuffer(answer.get()));
                step = Step.PASSED;
            }
            case CHALLENGE -> {
                Optional<byte[]> proof = dialer.prove(chunk);
                if (proof.isEmpty()) {
                    return refuse(ctx, "sent no haAuthSecret challenge (is haAuthSecret set there?)");
                }
                ctx.writeAndFlush(Unpooled.wrappedBuffer(proof.get()));
                step = Step.ANSWER;
            }
            case ANSWER -> {
                if (!dialer.verify(chunk)) {
                    return refuse(ctx, "did not prove haAuthSecret (a wrong secret); not trusted as master");
                }
                step = Step.PASSED;
            }
            default -> throw new IllegalStateException("step " + step);
        }
        return true;
    }

    private void pass(ChannelHandlerContext ctx) {
        deadline.cancel(false);
        LOG.debug("HA peer {} proved haAuthSecret", peer(ctx));
        protocol.accept(ctx.pipeline());
        ctx.fireChannelActive();
        ByteBuf rest = pending;
        pending = Unpooled.EMPTY_BUFFER;
        if (rest.isReadable()) {
            ctx.fireChannelRead(rest);
        } else {
            rest.release();
        }
        ctx.pipeline().remove(this);
    }

    private boolean refuse(ChannelHandlerContext ctx, String why) {
        if (step == Step.PASSED || step == Step.CLOSED) {
            return false;
        }
        LOG.warn("HA connection {} {} {}; closed before any log byte was sent",
                acceptor != null ? "from replica" : "to master", peer(ctx), why);
        step = Step.CLOSED;
        ctx.close();
        return false;
    }

    private static String peer(ChannelHandlerContext ctx) {
        return String.valueOf(ctx.channel().remoteAddress()).replaceFirst("^/", "");
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        if (deadline != null) {
            deadline.cancel(false);
        }
        ctx.fireChannelInactive();
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        refuse(ctx, "failed before authenticating: " + cause);
    }

    @Override
    public void handlerRemoved(ChannelHandlerContext ctx) {
        pending.release();
        pending = Unpooled.EMPTY_BUFFER;
    }
}
