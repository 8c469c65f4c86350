package org.modmq.ha.pull;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandler;
import io.netty.channel.embedded.EmbeddedChannel;
import java.io.ByteArrayOutputStream;
import java.time.Duration;
import java.util.HexFormat;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import org.modmq.testkit.ManualClock;

/**
 * An {@link EmbeddedChannel} whose scheduler and a {@link ManualClock} move together, for stepping a
 * session's timers by hand; bytes in and out as hex.
 */
final class EmbeddedLink implements AutoCloseable {

    final ManualClock clock;
    final EmbeddedChannel channel = new EmbeddedChannel();
    private final ChannelHandler[] handlers;

    /** @param clock the clock the handlers read; moved with the channel's scheduler by {@link #elapse} */
    EmbeddedLink(ManualClock clock, ChannelHandler... handlers) {
        this.clock = clock;
        this.handlers = handlers.clone();
        channel.freezeTime();
    }

    /** Installs the handlers and tells them the channel is active, with the scheduler's time frozen. */
    EmbeddedLink connect() {
        channel.pipeline().addLast(handlers);
        channel.pipeline().fireChannelActive();
        return this;
    }

    static byte[] hex(String spaced) {
        return HexFormat.of().parseHex(spaced.replace(" ", "").replace("|", ""));
    }

    void in(String spacedHex) {
        channel.writeInbound(Unpooled.wrappedBuffer(hex(spacedHex)));
    }

    void in(byte[] bytes) {
        channel.writeInbound(Unpooled.wrappedBuffer(bytes));
    }

    /** Everything written since the last call, as one hex string (released). */
    String out() {
        ByteArrayOutputStream all = new ByteArrayOutputStream();
        ByteBuf next;
        while ((next = channel.readOutbound()) != null) {
            try {
                byte[] bytes = ByteBufUtil.getBytes(next);
                all.write(bytes, 0, bytes.length);
            } finally {
                next.release();
            }
        }
        return HexFormat.of().formatHex(all.toByteArray()).toUpperCase(Locale.ROOT);
    }

    /** Moves both clocks by {@code millis} and runs the timers that came due. */
    void elapse(long millis) {
        clock.advance(Duration.ofMillis(millis));
        channel.advanceTimeBy(millis, TimeUnit.MILLISECONDS);
        channel.runScheduledPendingTasks();
        channel.runPendingTasks();
    }

    boolean open() {
        channel.runPendingTasks();
        return channel.isOpen();
    }

    @Override
    public void close() {
        channel.finishAndReleaseAll();
    }
}
