package org.modmq.store;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBufAllocator;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
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
import org.modmq.api.spi.PluginContext;
import org.modmq.api.spi.ProviderRegistry;
import org.modmq.api.spi.flush.FlushPolicyProvider;
import org.modmq.api.spi.storage.StorageBackend;
import org.modmq.api.spi.storage.StorageBackendProvider;
import org.modmq.store.faulty.control.FaultControl;
import org.modmq.store.faulty.control.FaultyStorage;
import org.modmq.testkit.NettyLeakCheck;

/**
 * A power loss that takes every ConsumeQueue entry written since the queue's last force, after dispatch
 * crossed into the queue's second file: the file exists (creating it is not undone), but neither file
 * holds an entry. Recovery must rebuild the queue from the CommitLog, whose records SYNC_FLUSH forced.
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

    @ParameterizedTest
    @ValueSource(strings = {"mmap", "direct"})
    void rebuildsQueueEntriesLostBelowAnEmptyLastFile(String delegate) throws Exception {
        ConfigValues config = ConfigValues.of(Map.of("storeBackend", FaultyStorage.NAME, FaultyStorage.DELEGATE_KEY,
                delegate, "flushDiskType", "SYNC_FLUSH", "storePathRootDir", root.toString(),
                "mappedFileSizeCommitLog", "65536", "mappedFileSizeConsumeQueue", Integer.toString(PER_FILE * 20),
                "maxHashSlotNum", "64", "maxIndexNum", "512",
                // No queue force before the power loss: every entry is lost, the records are not.
                "flushIntervalConsumeQueue", "3600000"));
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
