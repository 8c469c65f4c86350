package org.modmq.store;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.modmq.api.config.ConfigValues;
import org.modmq.api.config.PluginConfig;
import org.modmq.api.message.MessageProperties;
import org.modmq.api.message.PutStatus;
import org.modmq.api.message.StoredMessage;
import org.modmq.api.spi.PluginContext;
import org.modmq.store.flush.AsyncFlushPolicyProvider;
import org.modmq.store.flush.SyncFlushPolicyProvider;
import org.modmq.store.format.MessageDecoder;
import org.modmq.testkit.ManualClock;
import org.modmq.testkit.NettyLeakCheck;

@Timeout(60)
@ExtendWith(NettyLeakCheck.class)
class MessageStoreTest {

    @TempDir
    Path root;

    private final ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor();
    private final FileChannelTestBackend backend = new FileChannelTestBackend();
    private final AtomicReference<Double> usage = new AtomicReference<>(0.1);
    private final ManualClock clock = new ManualClock(Instant.parse("2024-01-01T10:00:00Z"));

    @AfterEach
    void stop() {
        scheduler.shutdownNow();
    }

    private MessageStore open() {
        ConfigValues values = ConfigValues.of(java.util.Map.of("mappedFileSizeCommitLog", "65536",
                "mappedFileSizeConsumeQueue", "81920", "maxHashSlotNum", "64", "maxIndexNum", "100",
                "syncFlushTimeout", "2000"));
        return MessageStore.open(StoreConfig.from(values, root), backend, new SyncFlushPolicyProvider(),
                new PluginContext(clock, scheduler, ByteBufAllocator.DEFAULT, root), usage::get);
    }

    private static PutResult put(MessageStore store, String topic, int queue, String body, String tags, String keys)
            throws Exception {
        return store.putMessage(TestMessages.message(topic, queue, body, tags, keys)).get(10, TimeUnit.SECONDS);
    }

    private static String body(ByteBuf record) {
        return new String(MessageDecoder.decode(record, record.readerIndex(), true).message().body());
    }

    @Test
    void putsAndPullsWithStatuses() throws Exception {
        try (MessageStore store = open()) {
            List<Long> arrivals = new ArrayList<>();
            store.addArrivalListener((topic, queue, max) -> arrivals.add(max));
            for (int i = 0; i < 4; i++) {
                PutResult result = put(store, "TopicA", 0, "m" + i, i % 2 == 0 ? "TagA" : "TagB", null);
                assertThat(result.status()).isEqualTo(PutStatus.PUT_OK);
                assertThat(result.queueOffset()).isEqualTo(i);
                assertThat(result.msgIds()).containsExactly(
                        MessageIds.offsetMsgId(TestMessages.STORE, result.commitLogOffset()));
            }
            assertThat(arrivals).containsExactly(1L, 2L, 3L, 4L);
            assertThat(store.getMaxOffsetInQueue("TopicA", 0)).isEqualTo(4);
            try (GetMessageResult all = store.getMessages("TopicA", 0, 0, 32, tag -> true, 1 << 20)) {
                assertThat(all.status()).isEqualTo(GetMessageStatus.FOUND);
                assertThat(all.messages()).hasSize(4);
                assertThat(body(all.messages().get(3))).isEqualTo("m3");
                assertThat(all.nextBeginOffset()).isEqualTo(4);
            }
            long tagB = MessageProperties.tagsCode("TagB");
            try (GetMessageResult onlyB = store.getMessages("TopicA", 0, 0, 32, tag -> tag == tagB, 1 << 20)) {
                assertThat(onlyB.queueOffsets()).containsExactly(1L, 3L);
            }
            try (GetMessageResult none = store.getMessages("TopicA", 0, 0, 32, tag -> false, 1 << 20)) {
                assertThat(none.status()).isEqualTo(GetMessageStatus.NO_MATCHED_MESSAGE);
                assertThat(none.nextBeginOffset()).isEqualTo(4);
            }
            try (GetMessageResult small = store.getMessages("TopicA", 0, 1, 32, tag -> true, 1)) {
                assertThat(small.messages()).hasSize(1);
                assertThat(small.nextBeginOffset()).isEqualTo(2);
            }
            assertThat(store.getMessages("TopicA", 0, 4, 32, t -> true, 1 << 20).status())
                    .isEqualTo(GetMessageStatus.OFFSET_OVERFLOW_ONE);
            GetMessageResult badly = store.getMessages("TopicA", 0, 100, 32, t -> true, 1 << 20);
            assertThat(badly.status()).isEqualTo(GetMessageStatus.OFFSET_OVERFLOW_BADLY);
            assertThat(badly.nextBeginOffset()).isEqualTo(4);
            assertThat(store.getMessages("Nope", 0, 0, 32, t -> true, 1 << 20).status())
                    .isEqualTo(GetMessageStatus.NO_MATCHED_LOGIC_QUEUE);
            assertThat(store.topics()).containsExactly("TopicA");
            assertThat(store.queueIds("TopicA")).containsExactly(0);
        }
    }

    @Test
    void queriesByKeyAndTime() throws Exception {
        try (MessageStore store = open()) {
            PutResult first = put(store, "T", 1, "a", null, "k1 k2");
            clock.advance(java.time.Duration.ofSeconds(5));
            put(store, "T", 1, "b", null, "k2");
            try (QueryMessageResult result = store.queryMessage("T", "k2", 10, 0, Long.MAX_VALUE)) {
                assertThat(result.messages()).hasSize(2);
                assertThat(body(result.messages().get(0))).isEqualTo("b");
            }
            try (QueryMessageResult uniq = store.queryMessage("T", "UNIQ-a", 10, 0, Long.MAX_VALUE)) {
                assertThat(uniq.commitLogOffsets()).containsExactly(first.commitLogOffset());
            }
            StoredMessage looked = store.lookMessageByOffset(first.commitLogOffset()).orElseThrow();
            assertThat(new String(looked.message().body())).isEqualTo("a");
            long t0 = store.getMessageStoreTimestamp("T", 1, 0);
            assertThat(store.getEarliestMessageTime("T", 1)).isEqualTo(t0);
            assertThat(store.getOffsetByTime("T", 1, t0)).isZero();
            assertThat(store.getOffsetByTime("T", 1, t0 + 1)).isEqualTo(1);
            assertThat(store.getOffsetByTime("T", 1, t0 + 60_000)).isEqualTo(2);
        }
    }

    @Test
    void reopensCleanlyWithoutWalking() throws Exception {
        long end;
        try (MessageStore store = open()) {
            for (int i = 0; i < 200; i++) {
                put(store, "T", i % 3, "message-" + i + "-" + "x".repeat(400), null, null);
            }
            end = store.getCommitLogMaxOffset();
        }
        assertThat(root.resolve("abort")).doesNotExist();
        try (MessageStore store = open()) {
            assertThat(store.recoveryReport().abnormal()).isFalse();
            assertThat(store.recoveryReport().recordsVerified()).isZero();
            assertThat(store.getCommitLogMaxOffset()).isEqualTo(end);
            assertThat(store.getMaxOffsetInQueue("T", 0)).isEqualTo(67);
            PutResult next = put(store, "T", 0, "after", null, null);
            assertThat(next.queueOffset()).isEqualTo(67);
            assertThat(next.commitLogOffset()).isGreaterThanOrEqualTo(end);
        }
    }

    @Test
    void cutsTheLogAtACorruptRecordAfterACrash() throws Exception {
        List<PutResult> results = new ArrayList<>();
        try (MessageStore store = open()) {
            for (int i = 0; i < 20; i++) {
                results.add(put(store, "T", 0, "body-" + i, null, null));
            }
        }
        Files.createFile(root.resolve("abort"));
        PutResult victim = results.get(10);
        Path segment = root.resolve("commitlog").resolve("00000000000000000000");
        try (FileChannel channel = FileChannel.open(segment, StandardOpenOption.WRITE)) {
            channel.write(ByteBuffer.wrap(new byte[] {'X'}), victim.commitLogOffset() + 90);
        }
        try (MessageStore store = open()) {
            RecoveryReport report = store.recoveryReport();
            assertThat(report.abnormal()).isTrue();
            assertThat(report.corruptionFound()).isTrue();
            assertThat(report.corruptOffset()).isEqualTo(victim.commitLogOffset());
            assertThat(store.getMaxOffsetInQueue("T", 0)).isEqualTo(10);
            try (GetMessageResult read = store.getMessages("T", 0, 0, 32, t -> true, 1 << 20)) {
                assertThat(read.messages()).hasSize(10);
                assertThat(body(read.messages().get(9))).isEqualTo("body-9");
            }
            assertThat(store.readMessage(victim.commitLogOffset())).isNull();
            PutResult next = put(store, "T", 0, "fresh", null, null);
            assertThat(next.queueOffset()).isEqualTo(10);
            assertThat(next.commitLogOffset()).isEqualTo(victim.commitLogOffset());
        }
    }

    @Test
    void crashRebuildsQueueEntriesWrittenAfterTheirLastForce() throws Exception {
        Path forced = Files.createTempDirectory(root.getParent(), "forced-queues");
        List<String> bodies = new ArrayList<>();
        long logicsForced;
        try (MessageStore store = open()) {
            for (int i = 0; i < 20; i++) {
                bodies.add("early-" + i);
                put(store, "T", 0, bodies.get(i), null, null);
            }
            store.flushLogics();
            logicsForced = store.getCommitLogMaxOffset();
            copyTree(root.resolve("consumequeue"), forced.resolve("consumequeue"));
            copyTree(root.resolve("index"), forced.resolve("index"));
            String padding = "x".repeat(4000);
            for (int i = 0; i < 100; i++) {
                bodies.add("late-" + i + padding);
                put(store, "T", 0, bodies.get(bodies.size() - 1), null, null);
            }
            assertThat(store.getCommitLogMaxOffset()).isGreaterThan(5 * 65536L);
        }
        // A crash after the CommitLog was forced to its end but the queues and index only up to the last
        // logics force: their later entries never reached the disk.
        deleteTree(root.resolve("consumequeue"));
        deleteTree(root.resolve("index"));
        copyTree(forced.resolve("consumequeue"), root.resolve("consumequeue"));
        copyTree(forced.resolve("index"), root.resolve("index"));
        var checkpoint = new org.modmq.store.recovery.CheckpointFile(root.resolve("checkpoint"));
        var clean = checkpoint.read();
        checkpoint.write(new org.modmq.store.recovery.Checkpoint(clean.physicMsgTimestamp(),
                clean.logicsMsgTimestamp(), clean.indexMsgTimestamp(), clean.masterFlushedOffset(),
                clean.confirmPhyOffset(), logicsForced));
        Files.createFile(root.resolve("abort"));

        try (MessageStore store = open()) {
            assertThat(store.recoveryReport().abnormal()).isTrue();
            assertThat(store.getMaxOffsetInQueue("T", 0)).isEqualTo(120);
            List<String> read = new ArrayList<>();
            long offset = 0;
            while (offset < 120) {
                try (GetMessageResult result = store.getMessages("T", 0, offset, 32, t -> true, 1 << 20)) {
                    result.messages().forEach(record -> read.add(body(record)));
                    offset = result.nextBeginOffset();
                }
            }
            assertThat(read).isEqualTo(bodies);
        }
    }

    @Test
    void aCrashWalksOnlyTheSegmentOfTheFlushedOffsetUnlessTheFilesEndBelowIt() throws Exception {
        long end;
        try (MessageStore store = open()) {
            String padding = "y".repeat(4000);
            for (int i = 0; i < 100; i++) {
                put(store, "T", 0, "w-" + i + padding, null, null);
            }
            end = store.getCommitLogMaxOffset();
            assertThat(end).isGreaterThan(5 * 65536L);
        }
        var checkpoint = new org.modmq.store.recovery.CheckpointFile(root.resolve("checkpoint"));
        var clean = checkpoint.read();
        Files.createFile(root.resolve("abort"));
        try (MessageStore store = open()) {
            assertThat(store.recoveryReport().verifiedFrom()).as("walk start").isEqualTo((end - 1) / 65536 * 65536);
            assertThat(store.getCommitLogMaxOffset()).isEqualTo(end);
        }

        // A checkpoint newer than the files: they end below its flushed offset, so the walk starts earlier.
        checkpoint.write(new org.modmq.store.recovery.Checkpoint(clean.physicMsgTimestamp(),
                clean.logicsMsgTimestamp(), clean.indexMsgTimestamp(), end + 100, end + 100, end));
        Files.createFile(root.resolve("abort"));
        try (MessageStore store = open()) {
            assertThat(store.recoveryReport().verifiedFrom()).as("walk start")
                    .isLessThan((end - 1) / 65536 * 65536);
            assertThat(store.getCommitLogMaxOffset()).isEqualTo(end);
            assertThat(store.getMaxOffsetInQueue("T", 0)).isEqualTo(100);
        }
    }

    private static void copyTree(Path from, Path to) throws java.io.IOException {
        try (var paths = Files.walk(from)) {
            for (Path path : (Iterable<Path>) paths::iterator) {
                Path target = to.resolve(from.relativize(path).toString());
                if (Files.isDirectory(path)) {
                    Files.createDirectories(target);
                } else {
                    Files.copy(path, target);
                }
            }
        }
    }

    private static void deleteTree(Path dir) throws java.io.IOException {
        try (var paths = Files.walk(dir)) {
            for (Path path : (Iterable<Path>) paths.sorted(java.util.Comparator.reverseOrder())::iterator) {
                Files.delete(path);
            }
        }
    }

    @Test
    void deletesExpiredSegmentsAndRefusesWritesWhenDiskIsFull() throws Exception {
        try (MessageStore store = open()) {
            while (store.getCommitLogMaxOffset() < 3 * 65536L) {
                put(store, "T", 0, "x".repeat(2000), null, null);
            }
            Path first = root.resolve("commitlog").resolve("00000000000000000000");
            Files.setLastModifiedTime(first, FileTime.from(Instant.parse("2023-01-01T00:00:00Z")));
            store.runMaintenance();
            assertThat(first).exists();
            clock.set(Instant.parse("2024-01-02T04:00:00Z"));
            store.runMaintenance();
            assertThat(store.getCommitLogMinOffset()).isEqualTo(65536L);
            assertThat(store.getMinOffsetInQueue("T", 0)).isGreaterThan(0);
            try (GetMessageResult read = store.getMessages("T", 0, 0, 1, t -> true, 1 << 20)) {
                assertThat(read.status()).isEqualTo(GetMessageStatus.OFFSET_TOO_SMALL);
            }
            usage.set(0.95);
            store.runMaintenance();
            assertThat(store.putMessage(TestMessages.message("T", 0, "no")).get().status())
                    .isEqualTo(PutStatus.DISK_FULL);
            // Above diskSpaceCleanForciblyRatio: every segment but the active one, expired or not.
            assertThat(store.getCommitLogMinOffset()).isEqualTo(store.getCommitLogMaxOffset() / 65536 * 65536);
        }
    }

    @Test
    void asyncFlushAnswersAtOnce() throws Exception {
        try (MessageStore store = MessageStore.open(StoreConfig.from(ConfigValues.of(java.util.Map.of(
                        "mappedFileSizeCommitLog", "65536", "maxHashSlotNum", "64", "maxIndexNum", "100")), root),
                backend, new AsyncFlushPolicyProvider(),
                new PluginContext(clock, scheduler, ByteBufAllocator.DEFAULT, root), usage::get)) {
            assertThat(store.flushPolicyName()).isEqualTo("ASYNC_FLUSH");
            assertThat(put(store, "T", 0, "a", null, null).status()).isEqualTo(PutStatus.PUT_OK);
        }
    }

    @Test
    void appendAnswersOffsetsBeforeTheForceAndDurableAfterIt() throws Exception {
        HeldFlushPolicy held = new HeldFlushPolicy();
        try (MessageStore store = MessageStore.open(StoreConfig.from(ConfigValues.of(java.util.Map.of(
                        "mappedFileSizeCommitLog", "65536", "maxHashSlotNum", "64", "maxIndexNum", "100")), root),
                backend, held.provider(), new PluginContext(clock, scheduler, ByteBufAllocator.DEFAULT, root),
                usage::get)) {
            AppendedPut first = store.append(List.of(TestMessages.message("T", 0, "a", null, null)));
            AppendedPut second = store.append(List.of(TestMessages.message("T", 0, "b", null, null),
                    TestMessages.message("T", 0, "c", null, null)));
            assertThat(first.stored()).isTrue();
            assertThat(first.appended().status()).isEqualTo(PutStatus.PUT_OK);
            assertThat(first.appended().commitLogOffset()).isZero();
            assertThat(second.appended().commitLogOffset()).isEqualTo(first.appended().endOffset());
            assertThat(second.appended().queueOffset()).isEqualTo(1);
            assertThat(second.appended().msgIds()).hasSize(2);
            assertThat(store.getMaxOffsetInQueue("T", 0)).isEqualTo(3);
            assertThat(first.durable()).isNotDone();
            assertThat(second.durable()).isNotDone();

            held.pending.get(0).complete(first.appended().endOffset());
            assertThat(first.durable().get(10, TimeUnit.SECONDS)).isEqualTo(first.appended());
            held.pending.get(1).completeExceptionally(new org.modmq.api.message.PutStatusException(
                    PutStatus.FLUSH_DISK_TIMEOUT, "late"));
            PutResult late = second.durable().get(10, TimeUnit.SECONDS);
            assertThat(late.status()).isEqualTo(PutStatus.FLUSH_DISK_TIMEOUT);
            assertThat(late.commitLogOffset()).isEqualTo(second.appended().commitLogOffset());
            assertThat(late.msgIds()).isEqualTo(second.appended().msgIds());

            store.close();
            AppendedPut refused = store.append(List.of(TestMessages.message("T", 0, "d", null, null)));
            assertThat(refused.stored()).isFalse();
            assertThat(refused.durable().get()).isSameAs(refused.appended());
        }
    }

    @Test
    void indexQueriesSurviveReopenAfterAWriteThrough() throws Exception {
        try (MessageStore store = open()) {
            for (int i = 0; i < 30; i++) {
                put(store, "T", 0, "m" + i, null, "k" + (i % 5));
            }
            store.flushLogics();
            put(store, "T", 0, "late", null, "k1");
        }
        try (MessageStore store = open();
             QueryMessageResult result = store.queryMessage("T", "k1", 100, 0, Long.MAX_VALUE)) {
            assertThat(result.messages()).hasSize(7);
            assertThat(body(result.messages().get(0))).isEqualTo("late");
        }
    }

    /** A flush policy whose futures the test completes. */
    private static final class HeldFlushPolicy implements org.modmq.api.spi.flush.FlushPolicy {

        final List<java.util.concurrent.CompletableFuture<Long>> pending = new java.util.concurrent.CopyOnWriteArrayList<>();

        org.modmq.api.spi.flush.FlushPolicyProvider provider() {
            return new org.modmq.api.spi.flush.FlushPolicyProvider() {
                @Override
                public String name() {
                    return "HELD";
                }

                @Override
                public org.modmq.api.spi.flush.FlushPolicy create(PluginConfig config,
                                                                  org.modmq.api.spi.flush.FlushContext context) {
                    return HeldFlushPolicy.this;
                }
            };
        }

        @Override
        public String name() {
            return "HELD";
        }

        @Override
        public java.util.concurrent.CompletableFuture<Long> appended(long endOffset) {
            java.util.concurrent.CompletableFuture<Long> future = new java.util.concurrent.CompletableFuture<>();
            pending.add(future);
            return future;
        }

        @Override
        public boolean synchronous() {
            return true;
        }

        @Override
        public void close() {
        }
    }
}
