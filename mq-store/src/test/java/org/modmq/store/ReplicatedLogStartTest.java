package org.modmq.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.modmq.api.config.ConfigValues;
import org.modmq.api.spi.PluginContext;
import org.modmq.api.spi.replication.ReplicatedLog;
import org.modmq.store.flush.AsyncFlushPolicyProvider;
import org.modmq.testkit.ManualClock;
import org.modmq.testkit.NettyLeakCheck;

/** An empty replica takes its first replicated bytes at the start of the master's last segment. */
@Timeout(60)
@ExtendWith(NettyLeakCheck.class)
class ReplicatedLogStartTest {

    private static final int SEGMENT = 65536;

    @TempDir
    Path root;

    private final ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor();
    private final FileChannelTestBackend backend = new FileChannelTestBackend();
    private final ManualClock clock = new ManualClock(Instant.parse("2024-01-01T10:00:00Z"));

    @AfterEach
    void stop() {
        scheduler.shutdownNow();
    }

    private MessageStore open(Path dir) {
        ConfigValues values = ConfigValues.of(Map.of("mappedFileSizeCommitLog", String.valueOf(SEGMENT),
                "maxHashSlotNum", "64", "maxIndexNum", "100",
                "brokerRole", dir.endsWith("replica") ? "SLAVE" : "ASYNC_MASTER"));
        return MessageStore.open(StoreConfig.from(values, dir), backend, new AsyncFlushPolicyProvider(),
                new PluginContext(clock, scheduler, ByteBufAllocator.DEFAULT, dir), () -> 0.1);
    }

    private static void copy(ReplicatedLog from, ReplicatedLog to, long start) {
        long at = start;
        while (at < from.maxOffset()) {
            ByteBuf chunk = from.read(at, 4096);
            try {
                to.append(at, chunk);
                at += chunk.readableBytes();
            } finally {
                chunk.release();
            }
        }
    }

    @Test
    void emptyReplicaStartsAtASegmentStartAndDispatchesFromThere() throws Exception {
        long lastStart;
        long masterEnd;
        long queueMax;
        try (MessageStore master = open(root.resolve("master"))) {
            for (int i = 0; i < 300; i++) {
                master.putMessage(TestMessages.message("T", 0, "m" + i + "x".repeat(500))).get(10, TimeUnit.SECONDS);
            }
            masterEnd = master.getCommitLogMaxOffset();
            lastStart = masterEnd - masterEnd % SEGMENT;
            queueMax = master.getMaxOffsetInQueue("T", 0);
            assertThat(lastStart).isGreaterThan(0);
            try (MessageStore replica = open(root.resolve("replica"))) {
                ReplicatedLog log = replica.replicatedLog();
                assertThatThrownBy(() -> log.append(lastStart + 8, Unpooled.EMPTY_BUFFER))
                        .isInstanceOf(IllegalArgumentException.class);
                copy(master.replicatedLog(), log, lastStart);
                assertThat(log.minOffset()).isEqualTo(lastStart);
                assertThat(log.maxOffset()).isEqualTo(masterEnd);
                assertThat(replica.getMaxOffsetInQueue("T", 0)).isEqualTo(queueMax);
                ByteBuf mine = log.read(lastStart, SEGMENT);
                ByteBuf theirs = master.replicatedLog().read(lastStart, SEGMENT);
                try {
                    assertThat(ByteBufUtil.equals(mine, theirs)).isTrue();
                } finally {
                    mine.release();
                    theirs.release();
                }
            }
        }
        try (MessageStore replica = open(root.resolve("replica"))) {
            assertThat(replica.getCommitLogMinOffset()).isEqualTo(lastStart);
            assertThat(replica.getCommitLogMaxOffset()).isEqualTo(masterEnd);
            assertThat(replica.getMaxOffsetInQueue("T", 0)).isEqualTo(queueMax);
        }
    }

    @Test
    void replicaClosedInsideARecordReopensAtTheLastWholeRecord() throws Exception {
        try (MessageStore master = open(root.resolve("master"))) {
            long firstEnd = master.putMessage(TestMessages.message("T", 0, "first")).get(10, TimeUnit.SECONDS)
                    .endOffset();
            long end = master.putMessage(TestMessages.message("T", 0, "second")).get(10, TimeUnit.SECONDS)
                    .endOffset();
            try (MessageStore replica = open(root.resolve("replica"))) {
                ByteBuf cut = master.replicatedLog().read(0, (int) firstEnd + 10);
                try {
                    replica.replicatedLog().append(0, cut);
                } finally {
                    cut.release();
                }
                assertThat(replica.getCommitLogMaxOffset()).isEqualTo(firstEnd + 10);
            }
            try (MessageStore replica = open(root.resolve("replica"))) {
                assertThat(replica.getCommitLogMaxOffset()).isEqualTo(firstEnd);
                copy(master.replicatedLog(), replica.replicatedLog(), firstEnd);
                assertThat(replica.getCommitLogMaxOffset()).isEqualTo(end);
                assertThat(replica.getMaxOffsetInQueue("T", 0)).isEqualTo(2);
            }
        }
    }
}
