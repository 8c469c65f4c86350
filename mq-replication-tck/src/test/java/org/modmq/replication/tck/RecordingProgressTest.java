package org.modmq.replication.tck;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.modmq.api.spi.replication.ReplicaLink;

/** The kit's progress completes replicated futures like the store's tracker and flags claims of unheld bytes. */
class RecordingProgressTest {

    private static final ReplicaLink B = new ReplicaLink("127.0.0.1:40001", 2);

    @Test
    void aFutureCompletesOnceAConnectedReplicaAcknowledgesItsOffset() {
        AtomicLong held = new AtomicLong(100);
        RecordingProgress progress = new RecordingProgress(held::get);
        CompletableFuture<Long> future = progress.replicated(100);
        progress.acknowledged(B, 50);
        assertThat(future).isNotDone();
        progress.acknowledged(B, 100);
        assertThat(future).isCompletedWithValue(100L);
        assertThat(progress.replicated(80)).as("already held").isCompletedWithValue(100L);
        progress.disconnected(B);
        assertThat(progress.acks()).isEmpty();
        assertThat(progress.replicated(80)).as("nobody connected").isNotDone();
        assertThat(progress.violations()).isEmpty();
    }

    @Test
    void anAcknowledgementBeyondWhatAnyReplicaHoldsIsAViolation() {
        RecordingProgress progress = new RecordingProgress(() -> 100);
        progress.acknowledged(B, 101);
        assertThat(progress.violations()).singleElement().asString().contains("101", "100");
    }
}
