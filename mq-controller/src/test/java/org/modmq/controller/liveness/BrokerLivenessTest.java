package org.modmq.controller.liveness;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.modmq.testkit.ManualClock;

class BrokerLivenessTest {

    private final ManualClock clock = new ManualClock(5_000);
    private final BrokerLiveness liveness = new BrokerLiveness(clock::millis);
    private final BrokerKey key = new BrokerKey("c", "b", 1);

    private Heartbeat beat(int epoch, long offset) {
        return new Heartbeat(key, "127.0.0.1:1", epoch, offset, offset, 1000, 3);
    }

    @Test
    void activeWithinTheTimeoutAndInactiveAtOnceWhenItsConnectionCloses() {
        Object channel = new Object();
        assertThat(liveness.onHeartbeat(beat(1, 10), channel)).isTrue();
        assertThat(liveness.onHeartbeat(beat(1, 10), channel)).isFalse();
        clock.advance(Duration.ofMillis(1000));
        assertThat(liveness.isActive(key)).isTrue();
        clock.advance(Duration.ofMillis(1));
        assertThat(liveness.isActive(key)).isFalse();
        liveness.onHeartbeat(beat(1, 10), channel);
        assertThat(liveness.onChannelClosed(new Object())).isEmpty();
        assertThat(liveness.onChannelClosed(channel)).containsExactly(key);
        assertThat(liveness.isActive(key)).isFalse();
    }

    @Test
    void epochAndOffsetOnlyMoveForwardAndTheLatestConnectionCounts() {
        Object first = new Object();
        Object second = new Object();
        liveness.onHeartbeat(beat(2, 100), first);
        liveness.onHeartbeat(beat(1, 900), second);
        assertThat(liveness.get(key)).hasValueSatisfying(live -> {
            assertThat(live.epoch()).isEqualTo(2);
            assertThat(live.maxOffset()).isEqualTo(100);
            assertThat(live.channel()).isSameAs(second);
        });
        assertThat(liveness.onChannelClosed(first)).isEmpty();
        liveness.onHeartbeat(beat(2, 150), second);
        assertThat(liveness.get(key).orElseThrow().maxOffset()).isEqualTo(150);
    }

    @Test
    void forgetsBrokersLongSilent() {
        liveness.onHeartbeat(beat(1, 1), new Object());
        clock.advance(Duration.ofMillis(1500));
        assertThat(liveness.expire(1000)).isZero();
        clock.advance(Duration.ofMillis(501));
        assertThat(liveness.expire(1000)).isEqualTo(1);
        assertThat(liveness.get(key)).isEmpty();
    }

    @Test
    void theLongestDeclaredTimeoutOutlivesTheConnectionAndExpiry() {
        Object channel = new Object();
        assertThat(liveness.declaredTimeout(key)).isEmpty();
        liveness.onHeartbeat(new Heartbeat(key, "127.0.0.1:1", 1, 1, 1, 3000, 3), channel);
        liveness.onHeartbeat(beat(1, 2), channel);
        liveness.onChannelClosed(channel);
        clock.advance(Duration.ofMillis(10_000));
        liveness.expire(0);
        assertThat(liveness.get(key)).isEmpty();
        assertThat(liveness.declaredTimeout(key)).hasValue(3000);
    }
}
