package org.modmq.remoting.netty;

import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.DecoderException;
import java.io.IOException;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import org.modmq.remoting.protocol.RemotingCommand;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The last inbound handler: responses go to the {@link ResponseTable}, requests to the
 * {@link CommandDispatcher}. A broken frame or any other exception closes the connection after one
 * log line; a closed connection fails its pending requests and notifies the close listeners.
 * Sharable; runs on event loops.
 */
@ChannelHandler.Sharable
final class RemotingHandler extends ChannelInboundHandlerAdapter {

    private static final Logger LOG = LoggerFactory.getLogger(RemotingHandler.class);

    private final ResponseTable responses;
    private final CommandDispatcher dispatcher;
    private final List<Consumer<RemotingChannel>> closeListeners = new CopyOnWriteArrayList<>();

    RemotingHandler(ResponseTable responses, CommandDispatcher dispatcher) {
        this.responses = responses;
        this.dispatcher = dispatcher;
    }

    void addCloseListener(Consumer<RemotingChannel> listener) {
        closeListeners.add(listener);
    }

    NettyRemotingChannel remotingChannel(ChannelHandlerContext ctx) {
        return NettyRemotingChannel.of(ctx.channel(), responses);
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (!(msg instanceof RemotingCommand command)) {
            ctx.fireChannelRead(msg);
            return;
        }
        if (command.isResponse()) {
            responses.complete(command);
        } else {
            dispatcher.dispatch(remotingChannel(ctx), command);
        }
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        responses.failChannel(ctx.channel());
        NettyRemotingChannel channel = remotingChannel(ctx);
        for (Consumer<RemotingChannel> listener : closeListeners) {
            try {
                listener.accept(channel);
            } catch (RuntimeException e) {
                LOG.warn("channel close listener failed for {}", channel, e);
            }
        }
        ctx.fireChannelInactive();
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        if (!ctx.channel().isActive()) {
            return;
        }
        String peer = remotingChannel(ctx).remoteAddressText();
        if (cause instanceof DecoderException) {
            Throwable reason = cause.getCause() != null ? cause.getCause() : cause;
            LOG.warn("closing connection from {}: {}: {}", peer,
                    reason instanceof javax.net.ssl.SSLException ? "TLS failed" : "broken frame", reason.getMessage());
        } else if (cause instanceof IOException) {
            LOG.debug("closing connection from {}: {}", peer, cause.toString());
        } else {
            LOG.warn("closing connection from {}", peer, cause);
        }
        ctx.close();
    }
}
