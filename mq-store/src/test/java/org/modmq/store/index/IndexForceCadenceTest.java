package org.modmq.store.index;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.modmq.store.FileChannelTestBackend;
import org.modmq.testkit.ManualClock;

/** What the checkpoint may name between two forces of the index. */
class IndexForceCadenceTest {

    private final ManualClock clock = new ManualClock(1_000_000);
    private final IndexStore index = new IndexStore(new FileChannelTestBackend(), Path.of("unused"), clock, 64, 100);

    @Test
    void theFirstCallForcesAndLaterOnesOnlyOnceTheIntervalPassed() {
        IndexForceCadence cadence = new IndexForceCadence(clock, 10_000);
        assertThat(cadence.flushIfDue(index, 100)).isEqualTo(100);
        clock.advance(Duration.ofMillis(9_999));
        assertThat(cadence.flushIfDue(index, 500)).as("not forced: still what the first force covered").isEqualTo(100);
        clock.advance(Duration.ofMillis(1));
        assertThat(cadence.flushIfDue(index, 700)).isEqualTo(700);
    }

    @Test
    void aZeroIntervalForcesEveryTime() {
        IndexForceCadence cadence = new IndexForceCadence(clock, 0);
        assertThat(cadence.flushIfDue(index, 100)).isEqualTo(100);
        assertThat(cadence.flushIfDue(index, 200)).isEqualTo(200);
    }

    @Test
    void neverAboveTheDispatchPositionNorACut() {
        IndexForceCadence cadence = new IndexForceCadence(clock, 10_000);
        assertThat(cadence.flushIfDue(index, 800)).isEqualTo(800);
        assertThat(cadence.flushIfDue(index, 300)).as("dispatch reset below the forced offset").isEqualTo(300);
        cadence.cappedAt(200);
        clock.advance(Duration.ofMillis(1));
        assertThat(cadence.flushIfDue(index, 900)).as("a truncation to 200 took the rest back").isEqualTo(200);
    }
}
