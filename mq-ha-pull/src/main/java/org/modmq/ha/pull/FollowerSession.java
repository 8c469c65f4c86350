package org.modmq.ha.pull;

import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.util.concurrent.ScheduledFuture;
import java.io.IOException;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import org.modmq.api.spi.storage.StorageException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The slave's side of one classic connection to the master. Reports the local max offset right after
 * connecting, once per socket read whose frames advanced it (not per frame: a report is a write
 * syscall on both sides, and a read often holds several frames) and after each heartbeat interval; appends each
 * frame's body at the frame's offset. A frame whose offset differs from a non-empty local log's end
 * means the logs diverged (classic HA has no epochs to settle it): the session tells its
 * {@link MasterFollower}, which stops following. A log that refuses the append because the store became
 * master stops the follower the same way, quietly.
 *
 * <p>Threads: confined to the channel's event loop. Receives whole frames from a
 * {@code LengthFieldBasedFrameDecoder} and releases each one.
 */
final class FollowerSession extends ChannelInboundHandlerAdapter {

    private static final Logger LOG = LoggerFactory.getLogger(FollowerSession.class);

    private final FollowContext context;
    private Channel channel;
    private ScheduledFuture<?> tick;
    private boolean halted;
    private long lastRead;
    private long lastReportAt;
    private long lastReported = -1;
    private boolean reportDue;

    FollowerSession(FollowContext context) {
        this.context = Objects.requireNonNull(context, "context");
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
        channel = ctx.channel();
        lastRead = context.clock().millis();
        long period = context.config().tick().toMillis();
        tick = ctx.executor().scheduleAtFixedRate(this::onTick, period, period, TimeUnit.MILLISECONDS);
        context.events().connected(context.generation());
        report();
        ctx.fireChannelActive();
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        ByteBuf frame = (ByteBuf) msg;
        try {
            lastRead = context.clock().millis();
            long offset = frame.readLong();
            int size = frame.readInt();
            if (!halted) {
                onFrame(offset, size, frame);
            }
        } finally {
            frame.release();
        }
    }

    private void onFrame(long offset, int size, ByteBuf body) {
        long mine = context.log().maxOffset();
        if (mine != 0 && mine != offset) {
            diverged(offset, mine);
            return;
        }
        if (size == 0) {
            return;
        }
        try {
            context.log().append(offset, body);
        } catch (IllegalArgumentException e) {
            LOG.error("master {} streams from {} but this replica's log cannot start there ({}); refusing to follow",
                    channel.remoteAddress(), offset, e.getMessage());
            halt("the log cannot start where the master streams");
            return;
        } catch (IllegalStateException e) {
            LOG.info("replication from master {} stops: the log refuses replicated writes ({})",
                    channel.remoteAddress(), e.getMessage());
            halt("the store became master");
            return;
        } catch (StorageException e) {
            LOG.error("cannot append replicated bytes at {}; dropping the connection to the master", offset, e);
            channel.close();
            return;
        }
        context.events().applied(context.generation());
        reportDue = true;
    }

    /** After the frames of one socket read: one report for all of them. */
    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
        if (reportDue && !halted && channel.isActive()) {
            reportDue = false;
            if (context.log().maxOffset() > lastReported) {
                report();
            }
        }
        ctx.fireChannelReadComplete();
    }

    private void diverged(long masterOffset, long mine) {
        String detail = masterOffset < mine
                ? "this replica holds " + (mine - masterOffset) + " bytes [" + masterOffset + ", " + mine
                        + ") the master lacks"
                : "the master skips " + (masterOffset - mine) + " bytes [" + mine + ", " + masterOffset
                        + ") this replica lacks";
        LOG.error("replica diverged from master {}: its CommitLog ends at {} but the master streams from {}; {}. "
                + "Refusing to follow until the replica's log is truncated to a common offset or rebuilt",
                channel.remoteAddress(), mine, masterOffset, detail);
        halt("the logs diverged");
    }

    private void halt(String why) {
        halted = true;
        context.events().halt(context.generation(), why);
    }

    private void report() {
        long max = context.log().maxOffset();
        lastReported = max;
        lastReportAt = context.clock().millis();
        channel.writeAndFlush(ClassicFrameLayout.report(channel.alloc(), max))
                .addListener(ChannelFutureListener.CLOSE_ON_FAILURE);
    }

    private void onTick() {
        if (!channel.isActive() || halted) {
            return;
        }
        long now = context.clock().millis();
        if (now - lastRead >= context.config().housekeepingInterval().toMillis()) {
            LOG.warn("master {} sent nothing for {} ms (haHousekeepingInterval); reconnecting",
                    channel.remoteAddress(), now - lastRead);
            channel.close();
            return;
        }
        if (now - lastReportAt >= context.config().heartbeatInterval().toMillis()) {
            report();
        }
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        if (tick != null) {
            tick.cancel(false);
        }
        ctx.fireChannelInactive();
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        if (cause instanceof IOException) {
            LOG.info("connection to master {} failed: {}", ctx.channel().remoteAddress(), cause.getMessage());
        } else {
            LOG.error("replication from master {} failed; reconnecting", ctx.channel().remoteAddress(), cause);
        }
        ctx.close();
    }
}
