package org.modmq.remoting.netty;

import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelPipeline;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.modmq.remoting.codec.RemotingCommandEncoder;
import org.modmq.remoting.codec.RemotingFrameDecoder;

/** Builds the pipeline shared by server and client: idle check, frame decoder, encoder, handler. */
final class RemotingChannelInitializer extends ChannelInitializer<Channel> {

    private static final RemotingCommandEncoder ENCODER = new RemotingCommandEncoder();

    private final int maxFrameLength;
    private final int idleSeconds;
    private final RemotingHandler handler;
    private final Consumer<Channel> onInit;

    RemotingChannelInitializer(int maxFrameLength, int idleSeconds, RemotingHandler handler, Consumer<Channel> onInit) {
        this.maxFrameLength = maxFrameLength;
        this.idleSeconds = idleSeconds;
        this.handler = handler;
        this.onInit = onInit;
    }

    @Override
    protected void initChannel(Channel channel) {
        onInit.accept(channel);
        ChannelPipeline pipeline = channel.pipeline();
        if (idleSeconds > 0) {
            pipeline.addLast("idle", new IdleCloseHandler(TimeUnit.SECONDS.toNanos(idleSeconds), System::nanoTime));
        }
        pipeline.addLast("decoder", new RemotingFrameDecoder(maxFrameLength));
        pipeline.addLast("encoder", ENCODER);
        pipeline.addLast("handler", handler);
    }
}
