package org.modmq.ha.pull;

import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.DecoderException;
import io.netty.util.concurrent.ScheduledFuture;
import java.io.IOException;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.modmq.api.spi.replication.EpochEntry;
import org.modmq.api.spi.replication.ReplicaLink;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The master's side of one AutoSwitch replica connection (RocketMQ {@code AutoSwitchHAConnection}).
 *
 * <p>States ({@link AutoSwitchState}): HANDSHAKE from connect: each replica handshake is answered with this
 * log's max offset and epoch history, which the session keeps for the connection's life (the store drops
 * every connection when it records another epoch). The replica's first report moves it to TRANSFER and says
 * where to stream from: its offset, or for 0 this log's first byte ({@code minOffset}) or, when the replica
 * asked for it, the start of this log's last file. TRANSFER streams {@link AutoSwitchMasterLayout} frames
 * while the channel is writable; a body never crosses the end of its epoch (nor of its CommitLog file) and
 * names the epoch its bytes belong to, with the current confirm offset; after the heartbeat interval
 * without writing, or when the confirm offset rose with nothing else to send, an empty frame goes out.
 * SHUTDOWN once closed. Every report is an acknowledgement, reported to the store as
 * {@code ReplicaLink(address, brokerId)} (an async learner as {@code UNKNOWN_ID}: it never counts for the
 * SyncStateSet).
 *
 * <p>Refused (the connection is closed, nothing else changes): a malformed frame, a report before any
 * handshake, a handshake after the transfer began or with another broker id, a first report beyond this
 * log's end (the replica holds bytes this master lacks) or below what this log still holds or before its
 * first epoch, silence for the housekeeping interval.
 *
 * <p>Threads: confined to the channel's event loop, except {@link #wake()} and {@link #close()}.
 */
final class AutoSwitchSlaveSession extends ChannelInboundHandlerAdapter implements ServedSession {

    private static final Logger LOG = LoggerFactory.getLogger(AutoSwitchSlaveSession.class);

    private final ServingContext context;
    private final long generation;
    private final AtomicBoolean wakeQueued = new AtomicBoolean();
    private volatile AutoSwitchState state = AutoSwitchState.HANDSHAKE;
    private volatile Channel channel;
    private String remote = "?";
    private ScheduledFuture<?> tick;
    private SlaveFrame.Handshake handshake;
    private ReplicaLink link;
    private boolean reported;
    private EpochTimeline timeline;
    private long next = -1;
    private long sentConfirm = -1;
    private long lastRead;
    private long lastWrite;

    AutoSwitchSlaveSession(ServingContext context, long generation) {
        this.context = Objects.requireNonNull(context, "context");
        this.generation = generation;
    }

    AutoSwitchState state() {
        return state;
    }

    @Override
    public void wake() {
        Channel ch = channel;
        if (ch != null && state == AutoSwitchState.TRANSFER && wakeQueued.compareAndSet(false, true)) {
            ch.eventLoop().execute(() -> {
                wakeQueued.set(false);
                pump();
            });
        }
    }

    @Override
    public void close() {
        Channel ch = channel;
        if (ch != null) {
            ch.close();
        }
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
        channel = ctx.channel();
        remote = String.valueOf(channel.remoteAddress()).replaceFirst("^/", "");
        lastRead = context.clock().millis();
        lastWrite = lastRead;
        if (!context.registry().register(this, generation)) {
            transition(AutoSwitchState.SHUTDOWN, "the store changed role while the replica connected");
            ctx.close();
            return;
        }
        long period = context.config().tick().toMillis();
        tick = ctx.executor().scheduleAtFixedRate(this::onTick, period, period, TimeUnit.MILLISECONDS);
        LOG.info("AutoSwitch replica {} connected", remote);
        ctx.fireChannelActive();
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        lastRead = context.clock().millis();
        if (state == AutoSwitchState.SHUTDOWN) {
            return;
        }
        if (msg instanceof SlaveFrame.Handshake hello) {
            onHandshake(hello);
        } else if (msg instanceof SlaveFrame.Report report) {
            onReport(report.maxOffset());
        }
    }

    private void onHandshake(SlaveFrame.Handshake hello) {
        if (state == AutoSwitchState.TRANSFER) {
            refuse("a handshake after the transfer began");
            return;
        }
        if (handshake != null && handshake.brokerId() != hello.brokerId()) {
            refuse("a second handshake as broker " + hello.brokerId() + " after " + handshake.brokerId());
            return;
        }
        handshake = hello;
        link = new ReplicaLink(remote, hello.asyncLearner() ? ReplicaLink.UNKNOWN_ID : hello.brokerId());
        timeline = new EpochTimeline(context.log().epochs(), Long.MAX_VALUE);
        long max = context.log().maxOffset();
        LOG.info("AutoSwitch replica {} (broker {}, syncFromLastFile {}, asyncLearner {}) handshakes; answering max "
                + "offset {}, epochs {}", remote, hello.brokerId(), hello.syncFromLastFile(), hello.asyncLearner(),
                max, timeline.entries());
        lastWrite = context.clock().millis();
        channel.writeAndFlush(AutoSwitchMasterLayout.handshake(channel.alloc(), max, timeline.lastEpoch(),
                timeline.entries())).addListener(ChannelFutureListener.CLOSE_ON_FAILURE);
    }

    private void onReport(long offset) {
        if (handshake == null) {
            refuse("a report before any handshake");
            return;
        }
        if (state == AutoSwitchState.HANDSHAKE && !startAt(offset)) {
            return;
        }
        reported = true;
        context.progress().acknowledged(link, offset);
        context.registry().acknowledged();
        pump();
    }

    /** The first report: where to stream from; false when refused. */
    private boolean startAt(long requested) {
        long max = context.log().maxOffset();
        long min = context.log().minOffset();
        if (requested > max) {
            refuse("a first report of " + requested + ", beyond this master's max offset " + max + ": the replica "
                    + "holds bytes this master lacks");
            return false;
        }
        long from = requested != 0 ? requested
                : handshake.syncFromLastFile() ? context.config().lastFileStart(max) : min;
        if (from < min) {
            refuse("a first report of " + requested + ", below this master's min offset " + min);
            return false;
        }
        if (timeline.covering(from) < 0) {
            refuse("a first report of " + requested + ": offset " + from + " precedes this master's first epoch "
                    + timeline.entries());
            return false;
        }
        next = from;
        transition(AutoSwitchState.TRANSFER, "replica reported " + requested + "; streaming from " + from);
        return true;
    }

    /** Streams what the log holds beyond {@code next} while the channel takes it. Event loop only. */
    private void pump() {
        if (state != AutoSwitchState.TRANSFER) {
            return;
        }
        boolean wrote = false;
        while (channel.isWritable()) {
            long max = context.log().maxOffset();
            if (next >= max) {
                break;
            }
            int index = timeline.covering(next);
            int limit = (int) Math.min(context.config().transferBatchSize(), timeline.endOf(index) - next);
            ByteBuf body;
            try {
                body = context.log().read(next, limit);
            } catch (IndexOutOfBoundsException e) {
                refuse("a stream from " + next + ", which this master no longer holds (min "
                        + context.log().minOffset() + ")");
                return;
            }
            int size = body.readableBytes();
            if (size == 0) {
                body.release();
                break;
            }
            sentConfirm = context.log().confirmOffset();
            channel.write(AutoSwitchMasterLayout.transferHeader(channel.alloc(), next, size, timeline.get(index),
                    sentConfirm), channel.voidPromise());
            channel.write(body).addListener(ChannelFutureListener.CLOSE_ON_FAILURE);
            next += size;
            wrote = true;
        }
        if (!wrote && channel.isWritable() && context.log().confirmOffset() > sentConfirm) {
            heartbeat();
            return;
        }
        if (wrote) {
            lastWrite = context.clock().millis();
            channel.flush();
        }
    }

    private void heartbeat() {
        EpochEntry epoch = timeline.get(timeline.covering(next));
        sentConfirm = context.log().confirmOffset();
        lastWrite = context.clock().millis();
        channel.writeAndFlush(AutoSwitchMasterLayout.transferHeader(channel.alloc(), next, 0, epoch, sentConfirm))
                .addListener(ChannelFutureListener.CLOSE_ON_FAILURE);
    }

    private void onTick() {
        if (state == AutoSwitchState.SHUTDOWN) {
            return;
        }
        long now = context.clock().millis();
        if (now - lastRead >= context.config().housekeepingInterval().toMillis()) {
            refuse("nothing for " + (now - lastRead) + " ms (haHousekeepingInterval)");
            return;
        }
        pump();
        if (state == AutoSwitchState.TRANSFER && channel.isWritable()
                && now - lastWrite >= context.config().heartbeatInterval().toMillis()) {
            heartbeat();
        }
    }

    @Override
    public void channelWritabilityChanged(ChannelHandlerContext ctx) {
        if (ctx.channel().isWritable()) {
            pump();
        }
        ctx.fireChannelWritabilityChanged();
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        if (tick != null) {
            tick.cancel(false);
        }
        transition(AutoSwitchState.SHUTDOWN, "connection closed");
        context.registry().unregister(this);
        if (reported) {
            context.progress().disconnected(link);
        }
        LOG.info("AutoSwitch replica {} disconnected", remote);
        ctx.fireChannelInactive();
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        if (cause instanceof DecoderException) {
            refuse(cause.getMessage());
            return;
        }
        if (cause instanceof IOException) {
            LOG.info("AutoSwitch replica {} connection failed: {}", remote, cause.getMessage());
        } else {
            LOG.error("AutoSwitch replica {} session failed; closing", remote, cause);
        }
        transition(AutoSwitchState.SHUTDOWN, "error");
        ctx.close();
    }

    private void refuse(String why) {
        LOG.error("AutoSwitch replica {}: {}; closing the connection", remote, why);
        transition(AutoSwitchState.SHUTDOWN, "refused");
        channel.close();
    }

    private void transition(AutoSwitchState to, String reason) {
        AutoSwitchState from = state;
        if (from != to && from != AutoSwitchState.SHUTDOWN) {
            state = to;
            LOG.info("AutoSwitch replica {}: {} -> {} ({})", remote, from, to, reason);
        }
    }
}
