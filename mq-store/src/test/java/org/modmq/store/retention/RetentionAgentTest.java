package org.modmq.store.retention;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBufAllocator;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.modmq.store.FileChannelTestBackend;
import org.modmq.store.TestMessages;
import org.modmq.store.dispatch.DispatchAgent;
import org.modmq.store.index.IndexStore;
import org.modmq.store.log.CommitLog;
import org.modmq.store.log.QueueOffsetTable;
import org.modmq.store.queue.ConsumeQueueTable;
import org.modmq.store.segment.SegmentFiles;
import org.modmq.testkit.ManualClock;
import org.modmq.testkit.NettyLeakCheck;

/**
 * Retention against a fake disk usage, with RocketMQ's thresholds: diskMaxUsedSpaceRatio 75 %,
 * diskSpaceCleanForciblyRatio 85 %, diskSpaceWarningLevelRatio 90 %, deleteWhen 04, fileReservedTime 72 h.
 * The log has six 4 KiB segments; the two oldest are expired.
 */
@ExtendWith(NettyLeakCheck.class)
class RetentionAgentTest {

    private static final int SEGMENT = 4096;
    private static final long HOUR = 3_600_000L;

    @TempDir
    Path root;

    private final FileChannelTestBackend backend = new FileChannelTestBackend();
    /** 10:00, not a deleteWhen hour. */
    private final ManualClock clock = new ManualClock(Instant.parse("2024-01-10T10:00:00Z"));
    private final AtomicReference<Double> usage = new AtomicReference<>(0.10);
    private CommitLog log;
    private ConsumeQueueTable queues;
    private IndexStore index;
    private RetentionAgent agent;

    @BeforeEach
    void fill() throws Exception {
        SegmentFiles files = new SegmentFiles(backend, root.resolve("commitlog"), SEGMENT, SEGMENT);
        files.load();
        log = new CommitLog(files, new QueueOffsetTable(), clock, ByteBufAllocator.DEFAULT, 1 << 20);
        log.restoreEnd(0);
        queues = new ConsumeQueueTable(backend, root.resolve("consumequeue"), 100);
        index = new IndexStore(backend, root.resolve("index"), clock, 64, 512);
        index.load();
        DispatchAgent dispatch = new DispatchAgent(log, queues, index, 0);
        while (log.files().starts().size() < 6) {
            log.append(TestMessages.message("T", 0, "x".repeat(500)));
        }
        dispatch.doWork();
        for (long start : log.files().starts()) {
            // The two oldest were last written 100 h ago, the rest 1 h ago.
            long age = start < 2 * SEGMENT ? 100 * HOUR : HOUR;
            Files.setLastModifiedTime(log.segmentPath(start), FileTime.fromMillis(clock.millis() - age));
        }
        agent = new RetentionAgent(log, queues, index, clock,
                new RetentionPolicy(72 * HOUR, Set.of(4), 0.75, 0.85, 0.90, RetentionPolicy.BATCH_MAX), usage::get);
    }

    @AfterEach
    void close() {
        index.close();
        queues.close();
        log.close();
    }

    @Test
    void belowEveryThresholdExpiredSegmentsWaitForDeleteWhen() {
        usage.set(0.75);
        assertThat(agent.doWork()).as("75 % is not above diskMaxUsedSpaceRatio").isZero();
        clock.set(Instant.parse("2024-01-11T04:00:00Z"));
        assertThat(agent.doWork()).as("deleteWhen: the two expired ones").isEqualTo(2);
        assertThat(log.minOffset()).isEqualTo(2 * SEGMENT);
        assertThat(queues.get("T", 0, false).minOffset()).as("the queue follows").isPositive();
        assertThat(agent.diskFull()).isFalse();
    }

    @Test
    void aboveMaxUsedExpiredSegmentsGoAtAnyHourButUnexpiredStay() {
        usage.set(0.80);
        assertThat(agent.doWork()).isEqualTo(2);
        assertThat(agent.doWork()).as("nothing else is expired").isZero();
        assertThat(log.minOffset()).isEqualTo(2 * SEGMENT);
        assertThat(agent.diskFull()).isFalse();
    }

    @Test
    void aboveCleanForciblyTheOldestGoWhetherExpiredOrNotButNeverTheActiveSegment() {
        usage.set(0.86);
        assertThat(agent.doWork()).as("all but the active segment").isEqualTo(5);
        assertThat(log.files().starts()).hasSize(1);
        assertThat(agent.doWork()).isZero();
        assertThat(log.maxOffset()).isGreaterThan(log.minOffset());
        assertThat(agent.diskFull()).as("85 % < usage <= 90 %: writes still taken").isFalse();
    }

    @Test
    void aPassDeletesAtMostTheBatch() {
        agent = new RetentionAgent(log, queues, index, clock,
                new RetentionPolicy(72 * HOUR, Set.of(4), 0.75, 0.85, 0.90, 2), usage::get);
        usage.set(0.95);
        assertThat(agent.doWork()).isEqualTo(2);
        assertThat(agent.doWork()).isEqualTo(2);
        assertThat(log.minOffset()).isEqualTo(4 * SEGMENT);
    }

    @Test
    void aboveWarningWritesAreRefusedUntilUsageIsBackAtCleanForcibly() {
        usage.set(0.91);
        agent.doWork();
        assertThat(agent.diskFull()).isTrue();
        usage.set(0.88);
        agent.doWork();
        assertThat(agent.diskFull()).as("below the warning level, still above the forcible ratio").isTrue();
        usage.set(0.85);
        agent.doWork();
        assertThat(agent.diskFull()).isFalse();
        usage.set(0.90);
        agent.doWork();
        assertThat(agent.diskFull()).as("90 % is not above the warning level").isFalse();
    }
}
