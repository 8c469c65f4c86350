package org.modmq.testkit.process;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(10)
class AwaitTest {

    @Test
    void returnsTheFirstNonNullValue() {
        AtomicInteger polls = new AtomicInteger();
        String value = Await.value("the third poll", Duration.ofSeconds(5),
                () -> polls.incrementAndGet() >= 3 ? "ready" : null);
        assertThat(value).isEqualTo("ready");
        assertThat(polls).hasValue(3);
    }

    @Test
    void timesOutNamingWhatItAwaitedWithTheLastException() {
        assertThatThrownBy(() -> Await.until("a condition that never holds", Duration.ofMillis(100), () -> {
            throw new IllegalStateException("not yet");
        })).isInstanceOf(AssertionError.class)
                .hasMessage("timed out after PT0.1S waiting for a condition that never holds")
                .cause().isInstanceOf(IllegalStateException.class).hasMessage("not yet");
    }

    @Test
    void anAssertionErrorEndsTheWaitAtOnce() {
        AtomicInteger polls = new AtomicInteger();
        assertThatThrownBy(() -> Await.until("a dead process", Duration.ofSeconds(5), () -> {
            polls.incrementAndGet();
            throw new AssertionError("it exited");
        })).isInstanceOf(AssertionError.class).hasMessage("it exited");
        assertThat(polls).hasValue(1);
    }

    @Test
    void keepsTheInterruptFlag() {
        Thread.currentThread().interrupt();
        try {
            assertThatThrownBy(() -> Await.until("never", Duration.ofSeconds(5), () -> false))
                    .isInstanceOf(AssertionError.class).hasMessage("interrupted while waiting for never");
            assertThat(Thread.currentThread().isInterrupted()).isTrue();
        } finally {
            Thread.interrupted();
        }
    }
}
