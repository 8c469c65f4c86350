package org.modmq.store;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.modmq.api.config.ConfigValues;
import org.modmq.api.spi.PluginContext;
import org.modmq.store.flush.SyncFlushPolicyProvider;
import org.modmq.store.format.MessageDecoder;
import org.modmq.store.recovery.Checkpoint;
import org.modmq.store.recovery.CheckpointFile;
import org.modmq.testkit.NettyLeakCheck;

/**
 * Where re-dispatch starts after a crash: at the checkpoint's dispatched offset only when the walk passed
 * it as a record start; otherwise (a checkpoint that does not fit the log) from where the walk started,
 * so no entry is lost and dispatch never starts inside a record.
 */
@ExtendWith(NettyLeakCheck.class)
class RedispatchAfterCrashTest {

    @TempDir
    Path root;

    private final ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor();
    private final FileChannelTestBackend backend = new FileChannelTestBackend();

    @AfterEach
    void stop() {
        scheduler.shutdownNow();
    }

    private MessageStore open() {
        ConfigValues values = ConfigValues.of(Map.of("mappedFileSizeCommitLog", "65536",
                "mappedFileSizeConsumeQueue", "81920", "maxHashSlotNum", "64", "maxIndexNum", "100",
                "flushIntervalConsumeQueue", "3600000"));
        return MessageStore.open(StoreConfig.from(values, root), backend, new SyncFlushPolicyProvider(),
                new PluginContext(Clock.systemUTC(), scheduler, ByteBufAllocator.DEFAULT, root), () -> 0);
    }

    @Test
    void aDispatchedOffsetInsideARecordRebuildsTheQueuesFromTheWalk() throws Exception {
        List<PutResult> puts = putTwenty();
        long end = endOf(puts);
        // A crash with every queue entry lost and a checkpoint naming an offset inside record 10.
        try (Stream<Path> paths = Files.walk(root.resolve("consumequeue"))) {
            for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(path);
            }
        }
        try (MessageStore store = crashedWith(new Checkpoint(0, 0, 0, end, end, puts.get(10).commitLogOffset() + 7))) {
            assertThat(store.recoveryReport().abnormal()).isTrue();
            assertReadable(store);
        }
    }

    @Test
    void aDispatchedOffsetTheWalkPassedIsWhereReDispatchStarts() throws Exception {
        List<PutResult> puts = putTwenty();
        long end = endOf(puts);
        try (MessageStore store = crashedWith(new Checkpoint(0, 0, 0, end, end, puts.get(15).commitLogOffset()))) {
            assertThat(store.getMaxOffsetInQueue("R", 0)).isEqualTo(20);
            assertThat(store.openPhases().keySet()).anyMatch(phase -> phase.startsWith("re-dispatch (5 records from "
                    + puts.get(15).commitLogOffset() + ")"));
        }
    }

    @Test
    void aCrashWalksFromTheDispatchedRecordInsteadOfTheSegmentStart() throws Exception {
        List<PutResult> puts = putTwenty();
        long end = endOf(puts);
        try (MessageStore store = crashedWith(new Checkpoint(0, 0, 0, end, end, puts.get(15).commitLogOffset()))) {
            assertWalked(store, puts.get(15).commitLogOffset(), 5, end);
        }
    }

    @Test
    void aFlushedOffsetInsideARecordWalksTheWholeSegment() throws Exception {
        List<PutResult> puts = putTwenty();
        long end = endOf(puts);
        // A replica's flushed offset may end inside a record; dispatch had got further.
        try (MessageStore store = crashedWith(new Checkpoint(0, 0, 0, puts.get(12).commitLogOffset() + 5, end, end))) {
            assertWalked(store, 0, 20, end);
        }
    }

    private List<PutResult> putTwenty() throws Exception {
        List<PutResult> puts = new ArrayList<>();
        try (MessageStore store = open()) {
            for (int i = 0; i < 20; i++) {
                puts.add(store.putMessage(TestMessages.message("R", 0, "m" + i)).get(10, TimeUnit.SECONDS));
            }
        }
        assertThat(puts.get(0).commitLogOffset()).as("one segment").isZero();
        return puts;
    }

    private static long endOf(List<PutResult> puts) {
        PutResult last = puts.get(puts.size() - 1);
        return last.commitLogOffset() + last.size();
    }

    /** Opens the store as after a crash (an abort file) with {@code checkpoint} in place. */
    private MessageStore crashedWith(Checkpoint checkpoint) throws Exception {
        new CheckpointFile(root.resolve("checkpoint")).write(checkpoint);
        Files.createFile(root.resolve("abort"));
        return open();
    }

    private static void assertWalked(MessageStore store, long from, int records, long end) {
        assertThat(store.recoveryReport().verifiedFrom()).as("walk start").isEqualTo(from);
        assertThat(store.recoveryReport().recordsVerified()).as("records walked").isEqualTo(records);
        assertThat(store.getCommitLogMaxOffset()).isEqualTo(end);
        assertReadable(store);
    }

    private static void assertReadable(MessageStore store) {
        assertThat(store.getMaxOffsetInQueue("R", 0)).isEqualTo(20);
        for (int i = 0; i < 20; i++) {
            try (GetMessageResult read = store.getMessages("R", 0, i, 1, t -> true, 1 << 20)) {
                ByteBuf record = read.messages().get(0);
                assertThat(new String(MessageDecoder.decode(record, record.readerIndex(), true).message().body(),
                        StandardCharsets.UTF_8)).isEqualTo("m" + i);
            }
        }
    }
}
