package org.modmq.remoting.netty;

import io.netty.channel.Channel;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelPipeline;
import io.netty.handler.flush.FlushConsolidationHandler;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.function.Predicate;
import org.modmq.remoting.codec.FrameMemoryBudget;
import org.modmq.remoting.codec.RemotingCommandEncoder;
import org.modmq.remoting.codec.RemotingFrameDecoder;

/**
 * Builds the pipeline shared by server and client: the transport-security handler (TLS sniffing on a
 * server, an {@code SslHandler} on a TLS client), idle check, frame decoder, encoder, handler.
 */
final class RemotingChannelInitializer extends ChannelInitializer<Channel> {

    private static final RemotingCommandEncoder ENCODER = new RemotingCommandEncoder();
    // experiment switch, see bench/README.md
    private static final boolean CONSOLIDATE_FLUSHES = !Boolean.getBoolean("modmq.remoting.noFlushConsolidation");
    private static final int FLUSH_AFTER_WRITES = 256;

    private final int maxFrameLength;
    private final FrameMemoryBudget budget;
    private final long frameReceiveTimeoutNanos;
    private final int idleSeconds;
    private final RemotingHandler handler;
    private final Predicate<Channel> admit;
    private final Function<Channel, ChannelHandler> security;

    /**
     * @param admit called first for every new channel; {@code false} closes it before anything is read
     * @param security the first handler of a channel (TLS), or null for none
     */
    RemotingChannelInitializer(int maxFrameLength, FrameMemoryBudget budget, long frameReceiveTimeoutNanos,
            int idleSeconds, RemotingHandler handler, Predicate<Channel> admit,
            Function<Channel, ChannelHandler> security) {
        this.maxFrameLength = maxFrameLength;
        this.budget = budget;
        this.frameReceiveTimeoutNanos = frameReceiveTimeoutNanos;
        this.idleSeconds = idleSeconds;
        this.handler = handler;
        this.admit = admit;
        this.security = security;
    }

    @Override
    protected void initChannel(Channel channel) {
        if (!admit.test(channel)) {
            channel.close();
            return;
        }
        ChannelPipeline pipeline = channel.pipeline();
        ChannelHandler first = security == null ? null : security.apply(channel);
        if (first != null) {
            pipeline.addLast("tls", first);
        }
        if (CONSOLIDATE_FLUSHES) {
            pipeline.addLast("flush", new FlushConsolidationHandler(FLUSH_AFTER_WRITES, true));
        }
        if (idleSeconds > 0) {
            pipeline.addLast("idle", new IdleCloseHandler(TimeUnit.SECONDS.toNanos(idleSeconds), System::nanoTime));
        }
        pipeline.addLast("decoder", new RemotingFrameDecoder(maxFrameLength, budget, frameReceiveTimeoutNanos));
        pipeline.addLast("encoder", ENCODER);
        pipeline.addLast("handler", handler);
    }
}
