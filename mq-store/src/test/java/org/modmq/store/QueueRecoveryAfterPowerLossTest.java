package org.modmq.store;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.modmq.api.config.ConfigValues;
import org.modmq.api.config.PluginConfig;
import org.modmq.api.message.PutStatus;
import org.modmq.api.message.StoredMessage;
import org.modmq.api.spi.PluginContext;
import org.modmq.api.spi.ProviderRegistry;
import org.modmq.api.spi.flush.FlushPolicyProvider;
import org.modmq.api.spi.storage.StorageBackend;
import org.modmq.api.spi.storage.StorageBackendProvider;
import org.modmq.store.faulty.control.FaultControl;
import org.modmq.store.faulty.control.FaultyStorage;
import org.modmq.store.format.MessageDecoder;
import org.modmq.store.recovery.CheckpointFile;
import org.modmq.store.segment.SegmentFiles;
import org.modmq.testkit.NettyLeakCheck;

/**
 * Power losses that take ConsumeQueue entries or a queue's cut back: recovery must rebuild the queue from
 * the CommitLog, whose records SYNC_FLUSH forced, and never serve an entry of a record the log lost.
 */
@ExtendWith(NettyLeakCheck.class)
class QueueRecoveryAfterPowerLossTest {

    private static final String TOPIC = "Lost";
    /** Entries per ConsumeQueue file (4000 bytes). */
    private static final int PER_FILE = 200;

    @TempDir
    Path root;

    private final ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor();

    @AfterEach
    void stop() {
        scheduler.shutdownNow();
        FaultyStorage.forget(root);
    }

    /**
     * Every ConsumeQueue entry written since the queue's last force is lost, after dispatch crossed into
     * the queue's second file: the file exists (creating it is not undone), but neither file holds an entry.
     */
    @ParameterizedTest
    @ValueSource(strings = {"mmap", "direct"})
    void rebuildsQueueEntriesLostBelowAnEmptyLastFile(String delegate) throws Exception {
        ConfigValues config = config(delegate,
                // No queue force before the power loss: every entry is lost, the records are not.
                "flushIntervalConsumeQueue", "3600000");
        FaultControl control = FaultyStorage.control(root);
        control.simulateForces(true);
        List<PutResult> acked = new ArrayList<>();
        try (Opened opened = new Opened(config)) {
            for (int i = 0; i < PER_FILE + 5; i++) {
                PutResult put = opened.store.putMessage(TestMessages.message(TOPIC, 0, "m" + i)).get(30, TimeUnit.SECONDS);
                assertThat(put.status()).isEqualTo(PutStatus.PUT_OK);
                acked.add(put);
            }
            assertThat(Files.list(root.resolve("consumequeue").resolve(TOPIC).resolve("0")).count())
                    .as("ConsumeQueue files").isEqualTo(2);
            control.powerLoss();
        }
        try (Opened reopened = new Opened(config)) {
            MessageStore store = reopened.store;
            assertThat(store.getMinOffsetInQueue(TOPIC, 0)).isZero();
            assertThat(store.getMaxOffsetInQueue(TOPIC, 0)).isEqualTo(acked.size());
            for (PutResult put : acked) {
                try (GetMessageResult read = store.getMessages(TOPIC, 0, put.queueOffset(), 1, t -> true, 1 << 20)) {
                    assertThat(read.status()).as("queue offset %d", put.queueOffset()).isEqualTo(GetMessageStatus.FOUND);
                    assertThat(read.queueOffsets()).containsExactly(put.queueOffset());
                }
            }
            PutResult next = store.putMessage(TestMessages.message(TOPIC, 0, "after")).get(30, TimeUnit.SECONDS);
            assertThat(next.queueOffset()).as("the queue continues densely").isEqualTo(acked.size());
        }
    }

    /**
     * The queue's entries were forced, the CommitLog's tail was not (ASYNC_FLUSH dispatches ahead of the
     * log's force): recovery cuts the log and the queue. If that cut were not forced, a second power loss
     * before the next queue force would bring the dropped entries back, pointing into the records written
     * since at the same offsets: reads would then meet a wrong size in the middle of another record.
     */
    @ParameterizedTest
    @ValueSource(strings = {"mmap", "direct"})
    void aQueueCutAtOpenSurvivesTheNextPowerLoss(String delegate) throws Exception {
        ConfigValues config = config(delegate, "flushIntervalConsumeQueue", "3600000");
        FaultyStorage.control(root).simulateForces(true);
        List<PutResult> first = new ArrayList<>();
        Opened opened = new Opened(config);
        for (int i = 0; i < 10; i++) {
            first.add(opened.store.putMessage(TestMessages.message(TOPIC, 0, "old-" + i + "-" + "o".repeat(100)))
                    .get(30, TimeUnit.SECONDS));
        }
        opened.closeCleanly();
        // The log loses records 5..9 (zeroed as an unforced tail reads after a crash); the queue keeps their entries.
        long cut = first.get(5).commitLogOffset();
        try (FileChannel log = FileChannel.open(root.resolve("commitlog").resolve(SegmentFiles.fileName(0)),
                StandardOpenOption.WRITE)) {
            log.write(ByteBuffer.allocate((int) (first.get(9).commitLogOffset() + first.get(9).size() - cut)), cut);
            log.force(true);
        }
        Files.createFile(root.resolve("abort"));

        List<String> second = new ArrayList<>();
        try (Opened recovered = new Opened(config)) {
            assertThat(recovered.store.getMaxOffsetInQueue(TOPIC, 0)).as("queue cut to the log").isEqualTo(5);
            for (int i = 0; i < 3; i++) {
                // Longer records than the lost ones: the log's end passes every dropped entry's record.
                String body = "new-" + i + "-" + "n".repeat(400);
                assertThat(recovered.store.putMessage(TestMessages.message(TOPIC, 0, body)).get(30, TimeUnit.SECONDS)
                        .status()).isEqualTo(PutStatus.PUT_OK);
                second.add(body);
            }
            // Power loss before any queue force: the three new entries are lost, the cut must not be.
        }
        try (Opened reopened = new Opened(config)) {
            MessageStore store = reopened.store;
            assertThat(store.getMaxOffsetInQueue(TOPIC, 0)).isEqualTo(5 + second.size());
            for (int offset = 0; offset < 5 + second.size(); offset++) {
                try (GetMessageResult read = store.getMessages(TOPIC, 0, offset, 1, t -> true, 1 << 20)) {
                    assertThat(read.status()).as("queue offset %d", offset).isEqualTo(GetMessageStatus.FOUND);
                    ByteBuf record = read.messages().get(0);
                    StoredMessage stored = MessageDecoder.decode(record, record.readerIndex(), true);
                    String body = new String(stored.message().body(), StandardCharsets.UTF_8);
                    assertThat(body).isEqualTo(offset < 5 ? "old-" + offset + "-" + "o".repeat(100) : second.get(offset - 5));
                }
            }
        }
    }

    /**
     * The index is forced only every {@code flushIntervalIndex}, the queues far more often: a power loss
     * between takes back index entries of records whose queue entries were forced. The checkpoint names
     * where the index was last forced, so recovery re-dispatches from there and every key is found again.
     */
    @ParameterizedTest
    @ValueSource(strings = {"mmap", "direct"})
    void keysIndexedSinceTheLastIndexForceAreFoundAfterAPowerLoss(String delegate) throws Exception {
        ConfigValues config = config(delegate, "flushIntervalConsumeQueue", "20", "flushIntervalIndex", "3600000");
        FaultyStorage.control(root).simulateForces(true);
        CheckpointFile checkpoint = new CheckpointFile(root.resolve("checkpoint"));
        long end = 0;
        try (Opened opened = new Opened(config)) {
            // The first logics flush forces the (empty) index; the next one comes an hour later.
            Polling.until("the first logics flush", () -> Files.exists(root.resolve("checkpoint")));
            for (int i = 0; i < 10; i++) {
                PutResult put = opened.store.putMessage(TestMessages.message(TOPIC, 0, "keyed-" + i, "T", "key-" + i))
                        .get(30, TimeUnit.SECONDS);
                end = put.commitLogOffset() + put.size();
            }
            long written = end;
            Polling.until("a queue force after the last put", () -> checkpoint.read().confirmPhyOffset() >= written);
            assertThat(checkpoint.read().logicsFlushedOffset()).as("checkpoint held at the index force").isZero();
        }
        try (Opened reopened = new Opened(config)) {
            for (int i = 0; i < 10; i++) {
                try (QueryMessageResult found = reopened.store.queryMessage(TOPIC, "key-" + i, 32, 0, Long.MAX_VALUE)) {
                    assertThat(found.messages()).as("key-%d", i).hasSize(1);
                }
            }
        }
    }

    /** SYNC_FLUSH on the faulty backend over {@code delegate}, small files, plus {@code extra} key-value pairs. */
    private ConfigValues config(String delegate, String... extra) {
        Map<String, String> values = new HashMap<>(Map.of("storeBackend", FaultyStorage.NAME,
                FaultyStorage.DELEGATE_KEY, delegate, "flushDiskType", "SYNC_FLUSH", "storePathRootDir", root.toString(),
                "mappedFileSizeCommitLog", "65536", "mappedFileSizeConsumeQueue", Integer.toString(PER_FILE * 20),
                "maxHashSlotNum", "64", "maxIndexNum", "512"));
        for (int i = 0; i < extra.length; i += 2) {
            values.put(extra[i], extra[i + 1]);
        }
        return ConfigValues.of(values);
    }

    /** A store on the faulty backend the config names; closing it cuts the power first. */
    private final class Opened implements AutoCloseable {
        final StorageBackend backend;
        final MessageStore store;

        Opened(ConfigValues config) {
            PluginContext context = new PluginContext(Clock.systemUTC(), scheduler, ByteBufAllocator.DEFAULT, root);
            StoreConfig storeConfig = StoreConfig.from(config, root);
            StorageBackendProvider provider = ProviderRegistry.load(StorageBackendProvider.class)
                    .get(storeConfig.storeBackend());
            backend = provider.create(PluginConfig.of(provider.configKeys(), config), context);
            try {
                store = MessageStore.open(storeConfig, backend,
                        ProviderRegistry.load(FlushPolicyProvider.class).get(storeConfig.flushDiskType()), context, () -> 0);
            } catch (RuntimeException e) {
                backend.close();
                throw e;
            }
        }

        /** A clean close: everything forced, the checkpoint written, the abort file removed. */
        void closeCleanly() {
            try {
                store.close();
            } finally {
                backend.close();
            }
        }

        @Override
        public void close() {
            FaultyStorage.control(root).powerLoss();
            try {
                store.close();
            } catch (RuntimeException expected) {
                // The crashed backend refuses the final force.
            } finally {
                backend.close();
            }
        }
    }
}
