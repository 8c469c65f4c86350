package org.modmq.ha.push.replica;

import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import java.time.Clock;
import org.modmq.api.spi.replication.ReplicatedLog;
import org.modmq.ha.push.config.PushConfig;
import org.modmq.ha.push.transport.LinkLiveness;
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
    private final LinkLiveness liveness;
    private final String master;
    private Channel channel;
    private long lastAcked = -1;
    private boolean applied;

    FollowSession(MasterFollower follower, ReplicatedLog log, PushConfig config, Clock clock, String master) {
        this.follower = follower;
        this.log = log;
        this.liveness = new LinkLiveness(config, clock);
        this.master = master;
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
        channel = ctx.channel();
        long end = log.maxOffset();
        int checkLength = TailChecksum.checkLength(log, end);
        int crc = checkLength == 0 ? 0 : TailChecksum.crc(log, end, checkLength);
        channel.writeAndFlush(PushFrameLayout.hello(channel.alloc(), end, checkLength, crc), channel.voidPromise());
        lastAcked = end;
        liveness.start(channel, "master " + master, this::housekeep);
        LOG.info("connected to master {}, asking from offset {}", master, end);
        ctx.fireChannelActive();
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        liveness.stop();
        follower.connectionLost(this);
        ctx.fireChannelInactive();
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        PushFrame frame = (PushFrame) msg;
        try {
            liveness.read();
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
        liveness.closeAfterError(ctx, cause);
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
        liveness.writeEmpty(PushFrameLayout.ACK, end);
    }

    /** A housekeeping tick while the master is not silent: acknowledges what is new, or heartbeats when idle. */
    private void housekeep(long now) {
        if (liveness.heartbeatDue(now) || lastAcked != log.maxOffset()) {
            acknowledge();
        }
    }
}
