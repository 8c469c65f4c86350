package org.modmq.ha.push.replica;

import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import java.time.Clock;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.modmq.api.spi.replication.ReplicatedLog;
import org.modmq.ha.push.config.PushConfig;
import org.modmq.ha.push.wire.PushFrame;
import org.modmq.ha.push.wire.PushFrameLayout;
import org.modmq.ha.push.wire.TailChecksum;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The replica's side of one connection to a master: sends the hello, appends each data frame at the
 * log's end, acknowledges once per read batch (so acknowledgements coalesce under load), heartbeats
 * when idle and closes a silent connection. A frame that does not start at the log's end closes the
 * connection; the follower then reconnects and resynchronizes from the log's end.
 *
 * <p>Threads: runs on its channel's event loop only.
 */
final class FollowSession extends ChannelInboundHandlerAdapter {

    private static final Logger LOG = LoggerFactory.getLogger(FollowSession.class);

    private final MasterFollower follower;
    private final ReplicatedLog log;
    private final PushConfig config;
    private final Clock clock;
    private final String master;
    private Channel channel;
    private ScheduledFuture<?> housekeeping;
    private long lastReadMillis;
    private long lastWriteMillis;
    private long lastAcked = -1;
    private boolean applied;

    FollowSession(MasterFollower follower, ReplicatedLog log, PushConfig config, Clock clock, String master) {
        this.follower = follower;
        this.log = log;
        this.config = config;
        this.clock = clock;
        this.master = master;
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
        channel = ctx.channel();
        long end = log.maxOffset();
        int checkLength = TailChecksum.checkLength(log, end);
        int crc = checkLength == 0 ? 0 : TailChecksum.crc(log, end, checkLength);
        channel.writeAndFlush(PushFrameLayout.hello(channel.alloc(), end, checkLength, crc), channel.voidPromise());
        lastReadMillis = clock.millis();
        lastWriteMillis = lastReadMillis;
        lastAcked = end;
        long period = Math.max(10, Math.min(config.heartbeatInterval().toMillis(), config.silenceTimeout().toMillis()) / 2);
        housekeeping = channel.eventLoop().scheduleAtFixedRate(this::housekeep, period, period, TimeUnit.MILLISECONDS);
        LOG.info("connected to master {}, asking from offset {}", master, end);
        ctx.fireChannelActive();
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        if (housekeeping != null) {
            housekeeping.cancel(false);
        }
        follower.connectionLost(this);
        ctx.fireChannelInactive();
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        PushFrame frame = (PushFrame) msg;
        try {
            lastReadMillis = clock.millis();
            switch (frame.type()) {
                case PushFrameLayout.DATA -> {
                    follower.masterAlive();
                    onData(frame);
                }
                case PushFrameLayout.HEARTBEAT -> follower.masterAlive();
                case PushFrameLayout.REFUSE -> {
                    follower.refused(this, frame.refusal(), frame.refusalDetail());
                    channel.close();
                }
                default -> {
                    LOG.warn("master {} sent frame type {}, closing", master, frame.type());
                    channel.close();
                }
            }
        } finally {
            frame.release();
        }
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
        if (applied) {
            applied = false;
            acknowledge();
        }
        ctx.fireChannelReadComplete();
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        LOG.warn("connection to master {}: closing after error: {}", master, cause.toString());
        ctx.close();
    }

    private void onData(PushFrame frame) {
        if (!channel.isActive()) {
            return;
        }
        long end = log.maxOffset();
        if (frame.offset() != end) {
            LOG.warn("master {} sent bytes at {} but the log ends at {} ({}); reconnecting to resync",
                    master, frame.offset(), end, frame.offset() > end ? "gap" : "overlap");
            channel.close();
            return;
        }
        try {
            log.append(frame.offset(), frame.body());
        } catch (RuntimeException e) {
            LOG.error("appending {} replicated bytes at {} failed; reconnecting", frame.body().readableBytes(),
                    frame.offset(), e);
            channel.close();
            return;
        }
        applied = true;
    }

    private void acknowledge() {
        long end = log.maxOffset();
        lastAcked = end;
        lastWriteMillis = clock.millis();
        channel.writeAndFlush(PushFrameLayout.empty(channel.alloc(), PushFrameLayout.ACK, end), channel.voidPromise());
    }

    private void housekeep() {
        long now = clock.millis();
        if (now - lastReadMillis > config.silenceTimeout().toMillis()) {
            LOG.warn("master {} silent for {} ms, reconnecting", master, now - lastReadMillis);
            channel.close();
            return;
        }
        if (now - lastWriteMillis >= config.heartbeatInterval().toMillis() || lastAcked != log.maxOffset()) {
            acknowledge();
        }
    }
}
