package org.modmq.remoting.netty;

import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPromise;
import io.netty.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Closes a connection that has seen no read and no write for the idle time. One instance per
 * channel; all state is touched only on the channel's event loop.
 */
final class IdleCloseHandler extends ChannelDuplexHandler {

    private static final Logger LOG = LoggerFactory.getLogger(IdleCloseHandler.class);

    private final long idleNanos;
    private final LongSupplier nanoClock;
    private long lastActivity;
    private ScheduledFuture<?> check;

    IdleCloseHandler(long idleNanos, LongSupplier nanoClock) {
        this.idleNanos = idleNanos;
        this.nanoClock = nanoClock;
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
        lastActivity = nanoClock.getAsLong();
        schedule(ctx, idleNanos);
        ctx.fireChannelActive();
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        if (check != null) {
            check.cancel(false);
        }
        ctx.fireChannelInactive();
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        lastActivity = nanoClock.getAsLong();
        ctx.fireChannelRead(msg);
    }

    @Override
    public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
        lastActivity = nanoClock.getAsLong();
        ctx.write(msg, promise);
    }

    private void schedule(ChannelHandlerContext ctx, long delayNanos) {
        check = ctx.executor().schedule(() -> onCheck(ctx), delayNanos, TimeUnit.NANOSECONDS);
    }

    private void onCheck(ChannelHandlerContext ctx) {
        if (!ctx.channel().isActive()) {
            return;
        }
        long idle = nanoClock.getAsLong() - lastActivity;
        if (idle >= idleNanos) {
            LOG.info("closing idle connection {} after {} s without traffic", ctx.channel().remoteAddress(),
                    TimeUnit.NANOSECONDS.toSeconds(idle));
            ctx.close();
        } else {
            schedule(ctx, idleNanos - idle);
        }
    }
}
