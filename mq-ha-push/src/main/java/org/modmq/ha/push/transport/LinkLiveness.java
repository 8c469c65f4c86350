package org.modmq.ha.push.transport;

import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import java.time.Clock;
import java.util.Objects;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.LongConsumer;
import org.modmq.ha.push.config.PushConfig;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The timing both ends of a push connection share: when the connection last read and last wrote, a
 * housekeeping task on the channel's event loop that closes the connection once the peer has been silent
 * longer than {@link PushConfig#silenceTimeout()} and otherwise gives the session a tick, and the
 * writes of whole frames that reset the write time (a replica's ACK, a master's HEARTBEAT). Whether a tick
 * sends a heartbeat is the session's decision ({@link #heartbeatDue(long)}). An error on the connection
 * closes it ({@link #closeAfterError}).
 *
 * <p>The housekeeping period is half the shorter of the heartbeat interval and the silence timeout, and at
 * least 10 ms.
 *
 * <p>Threads: every method runs on the channel's event loop; the tick runs there too.
 */
public final class LinkLiveness {

    private static final Logger LOG = LoggerFactory.getLogger(LinkLiveness.class);

    private final PushConfig config;
    private final Clock clock;
    private Channel channel;
    private String peer = "?";
    private ScheduledFuture<?> housekeeping;
    private long lastReadMillis;
    private long lastWriteMillis;

    public LinkLiveness(PushConfig config, Clock clock) {
        this.config = Objects.requireNonNull(config, "config");
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    /**
     * Counts the connection as having just read and written, and schedules housekeeping on its event loop:
     * each period closes {@code channel} if nothing was read for longer than the silence timeout, else
     * calls {@code tick} with the current time in milliseconds.
     *
     * @param peer names the other end in log lines ("replica 127.0.0.1:40112")
     */
    public void start(Channel channel, String peer, LongConsumer tick) {
        this.channel = Objects.requireNonNull(channel, "channel");
        this.peer = Objects.requireNonNull(peer, "peer");
        Objects.requireNonNull(tick, "tick");
        lastReadMillis = clock.millis();
        lastWriteMillis = lastReadMillis;
        long period = Math.max(10, Math.min(config.heartbeatInterval().toMillis(), config.silenceTimeout().toMillis()) / 2);
        housekeeping = channel.eventLoop().scheduleAtFixedRate(() -> housekeep(tick), period, period,
                TimeUnit.MILLISECONDS);
    }

    /** Cancels the housekeeping; idempotent, and harmless before {@link #start}. */
    public void stop() {
        if (housekeeping != null) {
            housekeeping.cancel(false);
        }
    }

    /** Records that a frame arrived. */
    public void read() {
        lastReadMillis = clock.millis();
    }

    /** Records that frames were just written and flushed. */
    public void wrote() {
        lastWriteMillis = clock.millis();
    }

    /** Whether nothing was written for a heartbeat interval up to {@code nowMillis}. */
    public boolean heartbeatDue(long nowMillis) {
        return nowMillis - lastWriteMillis >= config.heartbeatInterval().toMillis();
    }

    /**
     * Writes and flushes a whole {@code frame} (an ACK, a HEARTBEAT, a WELCOME) and records the write. The
     * buffer is the channel's to release.
     */
    public void write(ByteBuf frame) {
        lastWriteMillis = clock.millis();
        channel.writeAndFlush(frame, channel.voidPromise());
    }

    /** Logs {@code cause} and closes the connection; for the session's {@code exceptionCaught}. */
    public void closeAfterError(ChannelHandlerContext ctx, Throwable cause) {
        LOG.warn("{}: closing after error: {}", peer, cause.toString());
        ctx.close();
    }

    private void housekeep(LongConsumer tick) {
        long now = clock.millis();
        if (now - lastReadMillis > config.silenceTimeout().toMillis()) {
            LOG.warn("{} silent for {} ms, closing the connection", peer, now - lastReadMillis);
            channel.close();
            return;
        }
        tick.accept(now);
    }
}
