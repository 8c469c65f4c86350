package org.modmq.ha.pull;

import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.util.concurrent.ScheduledFuture;
import java.io.IOException;
import java.time.Clock;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import org.modmq.api.spi.replication.ReplicatedLog;
import org.modmq.api.spi.storage.StorageException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The slave's side of one connection to the master. Reports the local max offset right after
 * connecting, after every frame that advanced it and after each heartbeat interval; appends each
 * frame's body at the frame's offset. A frame whose offset differs from a non-empty local log's end
 * means the logs diverged: the session tells its {@link MasterFollower}, which stops following.
 *
 * <p>Threads: confined to the channel's event loop. Receives whole frames from a
 * {@code LengthFieldBasedFrameDecoder} and releases each one.
 */
final class FollowerSession extends ChannelInboundHandlerAdapter {

    private static final Logger LOG = LoggerFactory.getLogger(FollowerSession.class);

    private final PullConfig config;
    private final ReplicatedLog log;
    private final Clock clock;
    private final MasterFollower follower;
    private final long generation;
    private Channel channel;
    private ScheduledFuture<?> tick;
    private long lastRead;
    private long lastReportAt;
    private long lastReported = -1;

    FollowerSession(PullConfig config, ReplicatedLog log, Clock clock, MasterFollower follower, long generation) {
        this.config = Objects.requireNonNull(config, "config");
        this.log = Objects.requireNonNull(log, "log");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.follower = Objects.requireNonNull(follower, "follower");
        this.generation = generation;
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
        channel = ctx.channel();
        lastRead = clock.millis();
        long period = config.tick().toMillis();
        tick = ctx.executor().scheduleAtFixedRate(this::onTick, period, period, TimeUnit.MILLISECONDS);
        follower.connected(generation);
        report();
        ctx.fireChannelActive();
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        ByteBuf frame = (ByteBuf) msg;
        try {
            lastRead = clock.millis();
            long offset = frame.readLong();
            int size = frame.readInt();
            onFrame(offset, size, frame);
        } finally {
            frame.release();
        }
    }

    private void onFrame(long offset, int size, ByteBuf body) {
        long mine = log.maxOffset();
        if (mine != 0 && mine != offset) {
            diverged(offset, mine);
            return;
        }
        if (size == 0) {
            return;
        }
        try {
            log.append(offset, body);
        } catch (IllegalArgumentException e) {
            follower.diverged(generation, "the master streams from " + offset + " but this replica's log cannot "
                    + "start there: " + e.getMessage() + "; refusing to follow");
            return;
        } catch (StorageException e) {
            LOG.error("cannot append replicated bytes at {}; dropping the connection to the master", offset, e);
            channel.close();
            return;
        }
        follower.applied(generation);
        if (log.maxOffset() > lastReported) {
            report();
        }
    }

    private void diverged(long masterOffset, long mine) {
        String detail = masterOffset < mine
                ? "this replica holds " + (mine - masterOffset) + " bytes [" + masterOffset + ", " + mine
                        + ") the master lacks"
                : "the master skips " + (masterOffset - mine) + " bytes [" + mine + ", " + masterOffset
                        + ") this replica lacks";
        follower.diverged(generation, "replica diverged from the master: its CommitLog ends at " + mine
                + " but the master streams from " + masterOffset + "; " + detail + ". Refusing to follow until the "
                + "replica's log is truncated to a common offset or rebuilt");
    }

    private void report() {
        long max = log.maxOffset();
        lastReported = max;
        lastReportAt = clock.millis();
        channel.writeAndFlush(HaFrameLayout.report(channel.alloc(), max))
                .addListener(ChannelFutureListener.CLOSE_ON_FAILURE);
    }

    private void onTick() {
        if (!channel.isActive()) {
            return;
        }
        long now = clock.millis();
        if (now - lastRead >= config.housekeepingInterval().toMillis()) {
            LOG.warn("master {} sent nothing for {} ms (haHousekeepingInterval); reconnecting",
                    channel.remoteAddress(), now - lastRead);
            channel.close();
            return;
        }
        if (now - lastReportAt >= config.heartbeatInterval().toMillis()) {
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
