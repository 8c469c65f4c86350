package org.modmq.ha.push.master;

import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import java.time.Clock;
import java.util.concurrent.atomic.AtomicBoolean;
import org.modmq.api.spi.replication.ReplicaState;
import org.modmq.api.spi.replication.ReplicatedLog;
import org.modmq.ha.push.config.PushConfig;
import org.modmq.ha.push.transport.LinkLiveness;
import org.modmq.ha.push.wire.PushFrame;
import org.modmq.ha.push.wire.PushFrameLayout;
import org.modmq.ha.push.wire.Refusal;
import org.modmq.ha.push.wire.TailChecksum;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The master's side of one replica connection: waits for the hello, then pushes every appended byte
 * within the unacknowledged-bytes window, reads acknowledgements, heartbeats when idle and closes a
 * silent connection.
 *
 * <p>Threads: everything but {@link #kick()}, {@link #ackedOffset()} and {@link #state(long)} runs on
 * the channel's event loop. {@link #kick()} may be called from any thread and never blocks: it queues
 * one send pass on the event loop unless one is queued already, and that pass sends everything
 * appended up to then.
 */
final class ReplicaSession extends ChannelInboundHandlerAdapter {

    private static final Logger LOG = LoggerFactory.getLogger(ReplicaSession.class);

    /** Lifecycle; transitions go through {@link #transition}. */
    enum State { AWAITING_HELLO, STREAMING, REFUSED, CLOSED }

    private final PushMaster master;
    private final ReplicatedLog log;
    private final PushConfig config;
    private final LinkLiveness liveness;
    private final AtomicBoolean sendQueued = new AtomicBoolean();
    private volatile State state = State.AWAITING_HELLO;
    private volatile long acked;
    private volatile String address = "?";
    private long next;
    private Channel channel;

    ReplicaSession(PushMaster master, ReplicatedLog log, PushConfig config, Clock clock) {
        this.master = master;
        this.log = log;
        this.config = config;
        this.liveness = new LinkLiveness(config, clock);
    }

    long ackedOffset() {
        return acked;
    }

    boolean streaming() {
        return state == State.STREAMING;
    }

    /** Whether this replica counts for synchronous replication while the master's log ends at {@code masterEnd}. */
    boolean inSync(long masterEnd) {
        return state == State.STREAMING && masterEnd - acked <= config.fallBehindMaxBytes();
    }

    ReplicaState state(long masterEnd) {
        return new ReplicaState(address, acked, inSync(masterEnd));
    }

    /** Queues a send pass on the event loop; returns at once. */
    void kick() {
        if (state == State.STREAMING && sendQueued.compareAndSet(false, true)) {
            channel.eventLoop().execute(this::send);
        }
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
        channel = ctx.channel();
        address = String.valueOf(channel.remoteAddress()).replaceFirst("^/", "");
        liveness.start(channel, "replica " + address, this::housekeep);
        LOG.info("replica {} connected", address);
        ctx.fireChannelActive();
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        liveness.stop();
        transition(State.CLOSED, "connection closed");
        master.sessionClosed(this);
        ctx.fireChannelInactive();
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        PushFrame frame = (PushFrame) msg;
        try {
            liveness.read();
            switch (state) {
                case AWAITING_HELLO -> onHello(frame);
                case STREAMING -> onStreamingFrame(frame);
                default -> LOG.debug("replica {}: frame type {} after {}, ignored", address, frame.type(), state);
            }
        } finally {
            frame.release();
        }
    }

    @Override
    public void channelWritabilityChanged(ChannelHandlerContext ctx) {
        if (ctx.channel().isWritable()) {
            send();
        }
        ctx.fireChannelWritabilityChanged();
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        liveness.closeAfterError(ctx, cause);
    }

    private void onHello(PushFrame frame) {
        ByteBuf body = frame.body();
        if (frame.type() != PushFrameLayout.HELLO || body.readableBytes() < PushFrameLayout.HELLO_BODY_LENGTH
                || body.getInt(body.readerIndex()) != PushFrameLayout.MAGIC) {
            refuse(Refusal.PROTOCOL, "expected a push HELLO frame, got type " + frame.type());
            return;
        }
        short version = body.getShort(body.readerIndex() + 4);
        if (version != PushFrameLayout.VERSION) {
            refuse(Refusal.PROTOCOL, "protocol version " + version + " unsupported, master speaks "
                    + PushFrameLayout.VERSION);
            return;
        }
        long replicaEnd = frame.offset();
        int checkLength = body.getInt(body.readerIndex() + 6);
        int crc = body.getInt(body.readerIndex() + 10);
        long masterEnd = log.maxOffset();
        long masterStart = log.minOffset();
        if (replicaEnd > masterEnd) {
            refuse(Refusal.DIVERGED, "replica log ends at " + replicaEnd + ", beyond the master's end " + masterEnd
                    + ": it holds bytes the master lacks");
            return;
        }
        if (replicaEnd < masterStart) {
            refuse(Refusal.GAP, "replica needs offset " + replicaEnd + " but the master's log starts at "
                    + masterStart);
            return;
        }
        if (checkLength > 0 && replicaEnd - checkLength >= masterStart
                && TailChecksum.crc(log, replicaEnd, checkLength) != crc) {
            refuse(Refusal.DIVERGED, "the " + checkLength + " bytes below offset " + replicaEnd
                    + " differ from the master's");
            return;
        }
        next = replicaEnd;
        acked = replicaEnd;
        transition(State.STREAMING, "hello at offset " + replicaEnd + ", master ends at " + masterEnd);
        master.sessionStreaming(this);
        send();
    }

    private void onStreamingFrame(PushFrame frame) {
        if (frame.type() != PushFrameLayout.ACK) {
            LOG.warn("replica {}: unexpected frame type {}, closing", address, frame.type());
            channel.close();
            return;
        }
        long offset = frame.offset();
        if (offset > next) {
            LOG.warn("replica {} acknowledged {} but was sent only up to {}, closing", address, offset, next);
            channel.close();
            return;
        }
        if (offset > acked) {
            long before = acked;
            acked = offset;
            master.acknowledged(this, offset);
            if (next - before >= config.windowBytes()) {
                send();
            }
        }
    }

    private void send() {
        sendQueued.set(false);
        if (state != State.STREAMING) {
            return;
        }
        long end = log.maxOffset();
        boolean wrote = false;
        try {
            while (next < end && channel.isWritable()) {
                long room = config.windowBytes() - (next - acked);
                if (room <= 0) {
                    break;
                }
                int want = (int) Math.min(Math.min(room, config.maxFrameBytes()), end - next);
                ByteBuf view = log.read(next, want);
                int n = view.readableBytes();
                if (n == 0) {
                    view.release();
                    break;
                }
                channel.write(PushFrameLayout.header(channel.alloc(), PushFrameLayout.DATA, next, n),
                        channel.voidPromise());
                channel.write(view, channel.voidPromise());
                next += n;
                wrote = true;
            }
        } catch (IndexOutOfBoundsException e) {
            LOG.warn("replica {}: offset {} no longer readable ({}), closing", address, next, e.getMessage());
            channel.close();
        }
        if (wrote) {
            channel.flush();
            liveness.wrote();
        }
    }

    /** A housekeeping tick while the replica is not silent: sends what is due, or a heartbeat when idle. */
    private void housekeep(long now) {
        if (state == State.STREAMING) {
            send();
            if (liveness.heartbeatDue(now)) {
                liveness.writeEmpty(PushFrameLayout.HEARTBEAT, log.maxOffset());
            }
        }
    }

    private void refuse(Refusal reason, String detail) {
        LOG.error("refusing replica {}: {} ({})", address, detail, reason);
        transition(State.REFUSED, detail);
        channel.writeAndFlush(PushFrameLayout.refuse(channel.alloc(), log.maxOffset(), reason, detail))
                .addListener(ChannelFutureListener.CLOSE);
    }

    private void transition(State to, String reason) {
        State from = state;
        if (from == to || from == State.CLOSED) {
            return;
        }
        state = to;
        LOG.info("replica {}: {} -> {} ({})", address, from, to, reason);
    }
}
