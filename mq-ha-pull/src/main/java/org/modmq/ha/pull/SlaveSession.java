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
import java.util.concurrent.atomic.AtomicBoolean;
import org.modmq.api.spi.replication.ReplicaLink;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The master's side of one classic slave connection. Reads the slave's 8-byte reports (each one is its
 * acknowledgement, reported to the store as {@code ReplicaLink(address, UNKNOWN_ID)}; the first also fixes
 * where streaming starts: 0 means the start of the master's last CommitLog file) and streams CommitLog
 * bytes as {@link ClassicFrameLayout} frames while the channel is writable, so a slow slave only stops its
 * own stream. Sends an empty frame after the heartbeat interval and closes after the housekeeping interval
 * without reading anything.
 *
 * <p>Threads: all state is confined to the channel's event loop except {@link #wake()} and {@link #close()},
 * which any thread may call.
 */
final class SlaveSession extends ChannelInboundHandlerAdapter implements ServedSession {

    private static final Logger LOG = LoggerFactory.getLogger(SlaveSession.class);

    /** Connection states; every change goes through {@link #transition}. */
    enum State {
        /** Connected; nothing is sent before the first report. */
        AWAITING_REPORT,
        /** Streaming from {@code next}. */
        STREAMING,
        /** Closed or closing. */
        CLOSED
    }

    private final ServingContext context;
    private final long generation;
    private final AtomicBoolean wakeQueued = new AtomicBoolean();
    private volatile State state = State.AWAITING_REPORT;
    private volatile Channel channel;
    private ReplicaLink link;
    private boolean reported;
    private String remote = "?";
    private ScheduledFuture<?> tick;
    private long next = -1;
    private long partial;
    private int partialBytes;
    private long lastRead;
    private long lastWrite;

    SlaveSession(ServingContext context, long generation) {
        this.context = Objects.requireNonNull(context, "context");
        this.generation = generation;
    }

    @Override
    public void wake() {
        Channel ch = channel;
        if (ch != null && state == State.STREAMING && wakeQueued.compareAndSet(false, true)) {
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
        link = new ReplicaLink(remote, ReplicaLink.UNKNOWN_ID);
        lastRead = context.clock().millis();
        lastWrite = lastRead;
        if (!context.registry().register(this, generation)) {
            transition(State.CLOSED, "the store changed role while the slave connected");
            ctx.close();
            return;
        }
        long period = context.config().tick().toMillis();
        tick = ctx.executor().scheduleAtFixedRate(this::onTick, period, period, TimeUnit.MILLISECONDS);
        LOG.info("slave {} connected", remote);
        ctx.fireChannelActive();
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        ByteBuf in = (ByteBuf) msg;
        boolean complete = false;
        long report = 0;
        try {
            lastRead = context.clock().millis();
            while (in.isReadable()) {
                if (partialBytes == 0 && in.readableBytes() >= ClassicFrameLayout.REPORT_LENGTH) {
                    report = in.readLong();
                    complete = true;
                    continue;
                }
                partial = (partial << 8) | (in.readByte() & 0xFF);
                if (++partialBytes == ClassicFrameLayout.REPORT_LENGTH) {
                    report = partial;
                    complete = true;
                    partial = 0;
                    partialBytes = 0;
                }
            }
        } finally {
            in.release();
        }
        if (!complete || state == State.CLOSED) {
            return;
        }
        if (report < 0) {
            LOG.error("slave {} reported a negative offset {}; closing", remote, report);
            transition(State.CLOSED, "negative report");
            channel.close();
            return;
        }
        onReport(report);
    }

    private void onReport(long report) {
        if (state == State.AWAITING_REPORT) {
            long max = context.log().maxOffset();
            if (report > max) {
                refuseAhead(report, max);
                return;
            }
            next = report == 0 ? context.config().lastFileStart(max) : report;
            transition(State.STREAMING, "first report " + report + ", streaming from " + next);
        }
        reported = true;
        context.progress().acknowledged(link, report);
        pump();
    }

    private void refuseAhead(long report, long max) {
        LOG.error("slave {} reports CommitLog offset {} beyond this master's max offset {}: it holds {} bytes "
                + "this master lacks (diverged); closing the connection", remote, report, max, report - max);
        transition(State.CLOSED, "slave ahead of master");
        // One empty frame at our max offset lets the slave see the mismatch and say why it stops.
        channel.writeAndFlush(ClassicFrameLayout.header(channel.alloc(), max, 0))
                .addListener(ChannelFutureListener.CLOSE);
    }

    /** Streams what the log holds beyond {@code next} while the channel takes it. Event loop only. */
    private void pump() {
        if (state != State.STREAMING) {
            return;
        }
        boolean wrote = false;
        while (channel.isWritable()) {
            long max = context.log().maxOffset();
            if (next >= max) {
                break;
            }
            ByteBuf body;
            try {
                body = context.log().read(next, context.config().transferBatchSize());
            } catch (IndexOutOfBoundsException e) {
                LOG.error("slave {} needs CommitLog offset {} which this master no longer holds (min {}); closing",
                        remote, next, context.log().minOffset());
                transition(State.CLOSED, "offset not held");
                channel.close();
                return;
            }
            int size = body.readableBytes();
            if (size == 0) {
                body.release();
                break;
            }
            channel.write(ClassicFrameLayout.header(channel.alloc(), next, size), channel.voidPromise());
            channel.write(body).addListener(ChannelFutureListener.CLOSE_ON_FAILURE);
            next += size;
            wrote = true;
        }
        if (wrote) {
            lastWrite = context.clock().millis();
            channel.flush();
        }
    }

    private void onTick() {
        if (state == State.CLOSED) {
            return;
        }
        long now = context.clock().millis();
        if (now - lastRead >= context.config().housekeepingInterval().toMillis()) {
            LOG.warn("slave {} sent nothing for {} ms (haHousekeepingInterval); closing", remote, now - lastRead);
            transition(State.CLOSED, "housekeeping");
            channel.close();
            return;
        }
        pump();
        if (state == State.STREAMING && channel.isWritable()
                && now - lastWrite >= context.config().heartbeatInterval().toMillis()) {
            channel.writeAndFlush(ClassicFrameLayout.header(channel.alloc(), next, 0))
                    .addListener(ChannelFutureListener.CLOSE_ON_FAILURE);
            lastWrite = now;
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
        transition(State.CLOSED, "connection closed");
        context.registry().unregister(this);
        if (reported) {
            context.progress().disconnected(link);
        }
        LOG.info("slave {} disconnected", remote);
        ctx.fireChannelInactive();
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        // A failed TLS handshake (haTlsEnable) arrives as a decoder exception around an SSLException.
        Throwable root = cause instanceof io.netty.handler.codec.DecoderException && cause.getCause() != null
                ? cause.getCause() : cause;
        if (root instanceof IOException) {
            LOG.info("slave {} connection failed: {}", remote, root.getMessage());
        } else {
            LOG.error("slave {} session failed; closing", remote, cause);
        }
        transition(State.CLOSED, "error");
        ctx.close();
    }

    private void transition(State to, String reason) {
        State from = state;
        if (from != to && from != State.CLOSED) {
            state = to;
            LOG.info("slave {}: {} -> {} ({})", remote, from, to, reason);
        }
    }
}
