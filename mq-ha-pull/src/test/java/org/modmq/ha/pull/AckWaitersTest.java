package org.modmq.ha.pull;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.modmq.api.message.PutStatus;
import org.modmq.api.message.PutStatusException;

@Timeout(30)
class AckWaitersTest {

    private final ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor();

    @AfterEach
    void stop() {
        scheduler.shutdownNow();
    }

    @Test
    void completesEveryWaiterAtOrBelowTheAcknowledgement() {
        try (AckWaiters waiters = new AckWaiters(scheduler)) {
            CompletableFuture<Void> a = waiters.await(100, Duration.ofSeconds(10));
            CompletableFuture<Void> b = waiters.await(200, Duration.ofSeconds(10));
            CompletableFuture<Void> c = waiters.await(300, Duration.ofSeconds(10));
            waiters.acked(200);
            assertThat(a).isCompleted();
            assertThat(b).isCompleted();
            assertThat(c).isNotDone();
            assertThat(waiters.pending()).isEqualTo(1);
            waiters.acked(150);
            assertThat(waiters.highestAck()).isEqualTo(200);
            assertThat(waiters.await(180, Duration.ofSeconds(1))).isCompleted();
        }
    }

    @Test
    void timesOutWithFlushSlaveTimeout() throws Exception {
        try (AckWaiters waiters = new AckWaiters(scheduler)) {
            CompletableFuture<Void> late = waiters.await(100, Duration.ofMillis(50));
            assertThat(status(late)).isEqualTo(PutStatus.FLUSH_SLAVE_TIMEOUT);
            assertThat(waiters.pending()).isZero();
        }
    }

    @Test
    void closeFailsWaitersAndLaterCalls() throws Exception {
        AckWaiters waiters = new AckWaiters(scheduler);
        CompletableFuture<Void> pending = waiters.await(100, Duration.ofSeconds(10));
        waiters.close();
        waiters.close();
        assertThat(status(pending)).isEqualTo(PutStatus.SLAVE_NOT_AVAILABLE);
        assertThat(status(waiters.await(1, Duration.ofSeconds(1)))).isEqualTo(PutStatus.SLAVE_NOT_AVAILABLE);
    }

    private static PutStatus status(CompletableFuture<Void> future) throws Exception {
        try {
            future.get(5, TimeUnit.SECONDS);
            throw new AssertionError("expected a failure");
        } catch (ExecutionException e) {
            return ((PutStatusException) e.getCause()).status();
        }
    }
}
