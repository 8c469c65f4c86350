package org.modmq.ha.push.transport;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.embedded.EmbeddedChannel;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.modmq.api.config.ConfigValues;
import org.modmq.ha.push.config.PushConfig;
import org.modmq.ha.push.wire.PushFrameLayout;
import org.modmq.testkit.ManualClock;
import org.modmq.testkit.NettyLeakCheck;

/** Housekeeping stepped by hand: the channel's scheduler and the clock move together. */
@ExtendWith(NettyLeakCheck.class)
class LinkLivenessTest {

    private final ManualClock clock = new ManualClock(1_000_000);
    private final PushConfig config = PushConfig.from(ConfigValues.of(Map.of(
            "haSendHeartbeatInterval", "1000", "haHousekeepingInterval", "3000")));
    private final List<Long> ticks = new ArrayList<>();
    private final LinkLiveness liveness = new LinkLiveness(config, clock);
    private EmbeddedChannel channel;

    @BeforeEach
    void start() {
        channel = new EmbeddedChannel();
        channel.freezeTime();
        liveness.start(channel, "peer 127.0.0.1:1", ticks::add);
    }

    @AfterEach
    void close() {
        channel.finishAndReleaseAll();
    }

    /** Moves both clocks by {@code millis} and runs the housekeeping that came due. */
    private void elapse(long millis) {
        clock.advance(Duration.ofMillis(millis));
        channel.advanceTimeBy(millis, TimeUnit.MILLISECONDS);
        channel.runScheduledPendingTasks();
    }

    @Test
    void ticksEveryHalfHeartbeatWithTheTime() {
        elapse(499);
        assertThat(ticks).isEmpty();
        elapse(1);
        assertThat(ticks).containsExactly(1_000_500L);
        elapse(500);
        assertThat(ticks).containsExactly(1_000_500L, 1_001_000L);
    }

    @Test
    void aHeartbeatIsDueAfterAnIntervalWithoutWrites() {
        elapse(999);
        assertThat(liveness.heartbeatDue(clock.millis())).isFalse();
        elapse(1);
        assertThat(liveness.heartbeatDue(clock.millis())).isTrue();

        liveness.write(PushFrameLayout.heartbeat(channel.alloc(), 42, 3, 40));
        assertThat(liveness.heartbeatDue(clock.millis())).isFalse();
        ByteBuf frame = channel.readOutbound();
        try {
            assertThat(frame.readableBytes()).isEqualTo(PushFrameLayout.HEADER_LENGTH
                    + PushFrameLayout.HEARTBEAT_BODY_LENGTH);
            assertThat(frame.readByte()).isEqualTo(PushFrameLayout.HEARTBEAT);
            assertThat(frame.readLong()).isEqualTo(42);
            assertThat(frame.readInt()).isEqualTo(PushFrameLayout.HEARTBEAT_BODY_LENGTH);
            assertThat(frame.readInt()).as("epoch").isEqualTo(3);
            assertThat(frame.readLong()).as("confirmOffset").isEqualTo(40);
        } finally {
            frame.release();
        }

        elapse(600);
        liveness.wrote();
        elapse(999);
        assertThat(liveness.heartbeatDue(clock.millis())).isFalse();
    }

    @Test
    void closesASilentConnectionInsteadOfTicking() {
        elapse(2_500);
        liveness.read();
        elapse(3_000);
        assertThat(channel.isOpen()).isTrue();
        int ticked = ticks.size();
        elapse(500);
        assertThat(channel.isOpen()).as("silent for 3 500 ms > 3 000 ms").isFalse();
        assertThat(ticks).hasSize(ticked);
    }

    @Test
    void stopEndsTheTicks() {
        elapse(500);
        liveness.stop();
        liveness.stop();
        elapse(5_000);
        assertThat(ticks).hasSize(1);
        assertThat(channel.isOpen()).isTrue();
    }

    @Test
    void anErrorClosesTheConnection() {
        channel.pipeline().addLast(new ChannelInboundHandlerAdapter() {
            @Override
            public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
                liveness.closeAfterError(ctx, cause);
            }
        });
        channel.pipeline().fireExceptionCaught(new IOException("connection reset"));
        assertThat(channel.isOpen()).isFalse();
    }
}
