package org.modmq.ha.push.replica;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import java.time.Clock;
import org.modmq.api.spi.replication.EpochEntry;
import org.modmq.api.spi.replication.ReplicatedLog;
import org.modmq.ha.push.config.PushConfig;
import org.modmq.ha.push.sync.EpochGate;
import org.modmq.ha.push.sync.Handshake;
import org.modmq.ha.push.transport.LinkLiveness;
import org.modmq.ha.push.wire.EpochEntries;
import org.modmq.ha.push.wire.Hello;
import org.modmq.ha.push.wire.MalformedFrameException;
import org.modmq.ha.push.wire.PushFrame;
import org.modmq.ha.push.wire.PushFrameLayout;
import org.modmq.ha.push.wire.TailChecksum;
import org.modmq.ha.push.wire.Welcome;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The replica's side of one connection to a master: sends the HELLO, checks the WELCOME
 * ({@link Handshake#problem}) and cuts a diverged tail at the consistent point before taking any byte,
 * then appends each DATA frame at the log's end (recording a newer epoch first, see {@link EpochGate}),
 * passes the master's confirm offset to the log, acknowledges once per read batch (so acknowledgements
 * coalesce under load), heartbeats when idle and closes a silent connection.
 *
 * <p>Bad input (a malformed frame, a frame out of order, bytes that do not continue the log or break
 * the epoch rules) closes the connection before anything is written; the follower reconnects and
 * handshakes again. A log that refuses a replicated write ({@link IllegalStateException}: the store
 * became master) ends the session quietly and the follower waits for the next role change.
 *
 * <p>Threads: runs on its channel's event loop only. Buffers: each received frame is released here.
 */
final class FollowSession extends ChannelInboundHandlerAdapter {

    private static final Logger LOG = LoggerFactory.getLogger(FollowSession.class);

    /** Lifecycle; transitions go through {@link #transition}. */
    enum State { HANDSHAKE, STREAMING, CLOSED }

    private final MasterFollower follower;
    private final ReplicatedLog log;
    private final LinkLiveness liveness;
    private final MasterFollower.Target target;
    private State state = State.HANDSHAKE;
    private Channel channel;
    private Hello hello;
    private EpochGate gate;
    private long start;
    private long lastAcked = -1;
    private long lastConfirm = -1;
    private boolean applied;

    FollowSession(MasterFollower follower, ReplicatedLog log, PushConfig config, Clock clock,
                  MasterFollower.Target target) {
        this.follower = follower;
        this.log = log;
        this.liveness = new LinkLiveness(config, clock);
        this.target = target;
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
        channel = ctx.channel();
        liveness.start(channel, "master " + target.address(), this::housekeep);
        try {
            long end = log.maxOffset();
            long min = Math.min(log.minOffset(), end);
            int checkLength = (int) Math.min(PushFrameLayout.CHECK_LENGTH, end - min);
            int crc = checkLength == 0 ? 0 : TailChecksum.crc(log, end, checkLength);
            hello = new Hello(target.brokerId(), target.epoch(), min, end, checkLength, crc,
                    EpochEntries.newest(log.epochs()));
        } catch (IndexOutOfBoundsException e) {
            LOG.warn("cannot describe this log to master {}: {}; reconnecting", target.address(), e.getMessage());
            channel.close();
            return;
        }
        liveness.write(hello.encode(channel.alloc()));
        LOG.info("connected to master {}: this replica holds [{}, {}) in epochs {}, follows epoch {}",
                target.address(), hello.minOffset(), hello.maxOffset(), hello.epochs(), target.epoch());
        ctx.fireChannelActive();
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        liveness.stop();
        transition(State.CLOSED, "connection closed");
        follower.connectionLost(this);
        ctx.fireChannelInactive();
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        PushFrame frame = (PushFrame) msg;
        try {
            liveness.read();
            if (state == State.CLOSED || !follower.current(this)) {
                return;
            }
            switch (frame.type()) {
                case PushFrameLayout.WELCOME -> onWelcome(frame);
                case PushFrameLayout.DATA -> onData(frame);
                case PushFrameLayout.HEARTBEAT -> onHeartbeat(frame);
                case PushFrameLayout.REFUSE -> {
                    follower.refused(this, frame.refusal(), frame.refusalDetail());
                    close("refused");
                }
                default -> reject("frame type " + frame.type() + " is not for a replica");
            }
        } catch (MalformedFrameException | EpochGate.EpochViolation | IllegalArgumentException e) {
            reject(e.getMessage());
        } catch (IllegalStateException e) {
            LOG.info("the log refused the master's bytes ({}); waiting for the next role change", e.getMessage());
            follower.suspended(this, e.getMessage());
            close("log refused a replicated write");
        } finally {
            frame.release();
        }
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
        if (applied && state == State.STREAMING) {
            applied = false;
            acknowledge();
        }
        ctx.fireChannelReadComplete();
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        liveness.closeAfterError(ctx, cause);
    }

    private void onWelcome(PushFrame frame) {
        if (state != State.HANDSHAKE) {
            reject("a second WELCOME");
            return;
        }
        Welcome welcome = Welcome.decode(frame);
        if (log.maxOffset() != hello.maxOffset()) {
            reject("the log moved from " + hello.maxOffset() + " to " + log.maxOffset() + " since the HELLO");
            return;
        }
        String problem = Handshake.problem(hello, welcome);
        if (problem != null) {
            reject(problem);
            return;
        }
        if (welcome.truncateOffset() < hello.maxOffset()) {
            LOG.warn("cutting this replica's log from {} back to {}, the consistent point with master {} (epochs {} "
                    + "vs the master's {})", hello.maxOffset(), welcome.truncateOffset(), target.address(),
                    hello.epochs(), welcome.epochs());
            log.truncate(welcome.truncateOffset());
        }
        long end = log.maxOffset();
        if (end != welcome.startOffset() && end != 0) {
            reject("this log ends at " + end + " but the master starts at " + welcome.startOffset());
            return;
        }
        start = welcome.startOffset();
        gate = new EpochGate(log.epochs(), welcome.epoch());
        confirm(welcome.confirmOffset());
        transition(State.STREAMING, "master epoch " + welcome.epoch() + ", streaming from " + start);
        follower.following(this, "master " + target.address() + " in epoch " + welcome.epoch() + " streams from "
                + start);
    }

    private void onData(PushFrame frame) {
        if (state != State.STREAMING) {
            reject("DATA before the WELCOME");
            return;
        }
        ByteBuf body = frame.body();
        long offset = frame.offset();
        long end = log.maxOffset();
        if (offset != end) {
            if (end != 0 || offset != start) {
                reject("the master sent bytes at " + offset + " but the log ends at " + end);
                return;
            }
            // an empty log takes its first bytes at a segment start: place it there before any epoch entry
            log.append(offset, Unpooled.EMPTY_BUFFER);
        }
        EpochEntry entry = gate.admit(PushFrameLayout.dataEpoch(body), PushFrameLayout.dataEpochStart(body), offset);
        if (entry != null) {
            log.startEpoch(entry);
            gate.started(entry);
            LOG.info("replica enters epoch {} at {}", entry.epoch(), entry.startOffset());
        }
        log.append(offset, PushFrameLayout.dataPayload(body));
        applied = true;
        confirm(PushFrameLayout.dataConfirm(body));
    }

    private void onHeartbeat(PushFrame frame) {
        if (state != State.STREAMING) {
            reject("HEARTBEAT before the WELCOME");
            return;
        }
        int epoch = PushFrameLayout.heartbeatEpoch(frame.body());
        if (epoch != gate.masterEpoch()) {
            reject("heartbeat of epoch " + epoch + " from a master that welcomed in epoch " + gate.masterEpoch());
            return;
        }
        confirm(PushFrameLayout.heartbeatConfirm(frame.body()));
    }

    private void confirm(long offset) {
        if (offset > lastConfirm) {
            lastConfirm = offset;
            log.confirm(offset);
        }
    }

    private void acknowledge() {
        long end = log.maxOffset();
        lastAcked = end;
        liveness.write(PushFrameLayout.ack(channel.alloc(), end));
    }

    /** A housekeeping tick while the master is not silent: acknowledges what is new, or heartbeats when idle. */
    private void housekeep(long now) {
        if (state == State.STREAMING && (liveness.heartbeatDue(now) || lastAcked != log.maxOffset())) {
            acknowledge();
        }
    }

    private void reject(String why) {
        LOG.warn("master {}: {}; closing the connection, nothing applied from that frame", target.address(), why);
        close(why);
    }

    private void close(String why) {
        transition(State.CLOSED, why);
        channel.close();
    }

    private void transition(State to, String reason) {
        State from = state;
        if (from == to || from == State.CLOSED) {
            return;
        }
        state = to;
        LOG.debug("session with master {}: {} -> {} ({})", target.address(), from, to, reason);
    }
}
