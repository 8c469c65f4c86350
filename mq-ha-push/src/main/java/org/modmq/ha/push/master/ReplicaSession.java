package org.modmq.ha.push.master;

import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import java.time.Clock;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import org.modmq.api.spi.replication.EpochEntry;
import org.modmq.api.spi.replication.ReplicaLink;
import org.modmq.api.spi.replication.ReplicaProgress;
import org.modmq.api.spi.replication.ReplicatedLog;
import org.modmq.ha.push.config.PushConfig;
import org.modmq.ha.push.sync.EpochSpan;
import org.modmq.ha.push.sync.Handshake;
import org.modmq.ha.push.transport.LinkLiveness;
import org.modmq.ha.push.wire.Hello;
import org.modmq.ha.push.wire.MalformedFrameException;
import org.modmq.ha.push.wire.PushFrame;
import org.modmq.ha.push.wire.PushFrameLayout;
import org.modmq.ha.push.wire.Refusal;
import org.modmq.ha.push.wire.Welcome;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The master's side of one replica connection: refuses it at once unless the broker is master, else
 * answers its HELLO ({@link Handshake}) with a WELCOME or a REFUSE, then pushes the log from the
 * agreed offset up to its end within the unacknowledged-bytes window, one epoch per DATA frame, reads
 * acknowledgements and reports them to the store ({@link ReplicaProgress}), tells the replica when the
 * confirm offset rose, heartbeats when idle and closes a silent connection.
 *
 * <p>Threads: everything but {@link #kick()} and {@link #stop} runs on the channel's event loop. Both
 * may be called from any thread and never block: {@link #kick()} queues one send pass unless one is
 * queued already, and that pass sends everything appended up to then ({@code log.maxOffset()}, whatever
 * the hint said). Buffers: each received frame is released here; each written one is the channel's.
 */
final class ReplicaSession extends ChannelInboundHandlerAdapter {

    private static final Logger LOG = LoggerFactory.getLogger(ReplicaSession.class);

    /** Lifecycle; transitions go through {@link #transition}. */
    enum State { AWAITING_HELLO, STREAMING, REFUSED, CLOSED }

    private final PushMaster master;
    private final ReplicatedLog log;
    private final ReplicaProgress progress;
    private final PushConfig config;
    private final LinkLiveness liveness;
    private final AtomicBoolean sendQueued = new AtomicBoolean();
    private volatile State state = State.AWAITING_HELLO;
    private volatile boolean stopped;
    private String address = "?";
    private volatile Channel channel;
    private ReplicaLink link;
    private List<EpochEntry> history = List.of();
    private int epoch;
    private long next;
    private long acked;
    private long confirmSent;
    private boolean acksRead;

    ReplicaSession(PushMaster master, ReplicatedLog log, ReplicaProgress progress, PushConfig config, Clock clock) {
        this.master = master;
        this.log = log;
        this.progress = progress;
        this.config = config;
        this.liveness = new LinkLiveness(config, clock);
    }

    State state() {
        return state;
    }

    /** Queues a send pass on the event loop; returns at once. */
    void kick() {
        if (state == State.STREAMING && !stopped && sendQueued.compareAndSet(false, true)) {
            channel.eventLoop().execute(this::send);
        }
    }

    /** Closes the connection from any thread; nothing is sent or reported after this returns. */
    Channel stop(String why) {
        stopped = true;
        Channel current = channel;
        if (current != null) {
            LOG.info("replica {}: closing ({})", address, why);
            current.close();
        }
        return current;
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
        channel = ctx.channel();
        address = String.valueOf(channel.remoteAddress()).replaceFirst("^/", "");
        liveness.start(channel, "replica " + address, this::housekeep);
        if (!master.opened(this) || stopped) {
            refuse(Refusal.NOT_MASTER, "this broker is a replica and serves no replicas");
        } else {
            LOG.info("replica {} connected", address);
        }
        ctx.fireChannelActive();
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        liveness.stop();
        transition(State.CLOSED, "connection closed");
        master.closed(this);
        if (link != null) {
            progress.disconnected(link);
        }
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
    public void channelReadComplete(ChannelHandlerContext ctx) {
        if (acksRead) {
            acksRead = false;
            send();
        }
        ctx.fireChannelReadComplete();
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
        Hello hello;
        try {
            hello = Hello.decode(frame);
        } catch (MalformedFrameException e) {
            refuse(Refusal.PROTOCOL, e.getMessage());
            return;
        }
        if (stopped || !master.serving()) {
            refuse(Refusal.NOT_MASTER, "this broker is a replica and serves no replicas");
            return;
        }
        Handshake.Answer answer;
        try {
            answer = Handshake.answer(hello, master.epoch(), log);
        } catch (IndexOutOfBoundsException e) {
            refuse(Refusal.GAP, "the master no longer holds the replica's tail: " + e.getMessage());
            return;
        }
        if (!answer.accepted()) {
            refuse(answer.refusal(), answer.detail());
            return;
        }
        Welcome welcome = answer.welcome();
        history = log.epochs();
        epoch = welcome.epoch();
        next = welcome.startOffset();
        acked = next;
        confirmSent = Math.min(welcome.confirmOffset(), next);
        link = new ReplicaLink(address, hello.brokerId());
        transition(State.STREAMING, "broker id " + hello.brokerId() + ", replica ends at " + hello.maxOffset()
                + ", cut at " + welcome.truncateOffset() + ", streaming from " + next + " in epoch " + epoch
                + ", master ends at " + welcome.maxOffset());
        liveness.write(welcome.encode(channel.alloc()));
        progress.acknowledged(link, next);
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
        if (offset > acked && !stopped) {
            acked = offset;
            progress.acknowledged(link, offset);
        }
        acksRead = true;
    }

    /**
     * Sends DATA from {@code next} up to the log's end while the window and the channel allow, each frame
     * within one segment and one epoch, then a HEARTBEAT when the confirm offset rose past what the replica
     * was told about the bytes it was sent.
     */
    private void send() {
        sendQueued.set(false);
        if (state != State.STREAMING || stopped) {
            return;
        }
        long end = log.maxOffset();
        long confirm = log.confirmOffset();
        boolean wrote = false;
        try {
            while (next < end && channel.isWritable()) {
                long room = config.windowBytes() - (next - acked);
                if (room <= 0) {
                    break;
                }
                EpochSpan span = EpochSpan.at(history, next);
                int want = (int) Math.min(Math.min(room, config.maxFrameBytes()), Math.min(end, span.end()) - next);
                ByteBuf view = log.read(next, want);
                int n = view.readableBytes();
                if (n == 0) {
                    view.release();
                    break;
                }
                long frameConfirm = Math.min(confirm, next + n);
                channel.write(PushFrameLayout.dataHeader(channel.alloc(), next, n, span.epoch(), span.start(),
                        frameConfirm), channel.voidPromise());
                channel.write(view, channel.voidPromise());
                next += n;
                confirmSent = Math.max(confirmSent, frameConfirm);
                wrote = true;
            }
        } catch (IndexOutOfBoundsException e) {
            LOG.warn("replica {}: offset {} no longer readable ({}), closing", address, next, e.getMessage());
            channel.close();
            return;
        }
        long due = Math.min(confirm, next);
        if (due > confirmSent) {
            channel.write(PushFrameLayout.heartbeat(channel.alloc(), end, epoch, due), channel.voidPromise());
            confirmSent = due;
            wrote = true;
        }
        if (wrote) {
            channel.flush();
            liveness.wrote();
        }
    }

    /** A housekeeping tick while the replica is not silent: sends what is due, or a heartbeat when idle. */
    private void housekeep(long now) {
        if (state == State.STREAMING && !stopped) {
            send();
            if (liveness.heartbeatDue(now)) {
                long due = Math.min(log.confirmOffset(), next);
                confirmSent = Math.max(confirmSent, due);
                liveness.write(PushFrameLayout.heartbeat(channel.alloc(), log.maxOffset(), epoch, due));
            }
        }
    }

    private void refuse(Refusal reason, String detail) {
        LOG.warn("refusing replica {}: {} ({})", address, detail, reason);
        transition(State.REFUSED, reason + ": " + detail);
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
