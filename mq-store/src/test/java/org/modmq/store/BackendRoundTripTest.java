package org.modmq.store;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
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
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.modmq.api.config.ConfigValues;
import org.modmq.api.config.PluginConfig;
import org.modmq.api.message.StoredMessage;
import org.modmq.api.spi.PluginContext;
import org.modmq.api.spi.ProviderRegistry;
import org.modmq.api.spi.flush.FlushPolicyProvider;
import org.modmq.api.spi.storage.StorageBackend;
import org.modmq.api.spi.storage.StorageBackendProvider;
import org.modmq.store.format.MessageDecoder;
import org.modmq.store.format.MessageLayout;
import org.modmq.testkit.NettyLeakCheck;

/** Byte-exact CommitLog and ConsumeQueue round trips on the real backends, found by provider name. */
@Timeout(120)
@ExtendWith(NettyLeakCheck.class)
class BackendRoundTripTest {

    @TempDir
    Path root;

    private final ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor();

    @AfterEach
    void stop() {
        scheduler.shutdownNow();
    }

    static ConfigValues config() {
        return ConfigValues.of(Map.of("mappedFileSizeCommitLog", "65536", "mappedFileSizeConsumeQueue", "81920",
                "maxHashSlotNum", "64", "maxIndexNum", "256"));
    }

    private MessageStore open(StorageBackend backend) {
        PluginContext context = new PluginContext(Clock.systemUTC(), scheduler, ByteBufAllocator.DEFAULT, root);
        return MessageStore.open(StoreConfig.from(config(), root), backend,
                ProviderRegistry.load(FlushPolicyProvider.class).get("SYNC_FLUSH"), context, () -> 0.1);
    }

    @ParameterizedTest
    @ValueSource(strings = {"mmap", "mmap-small-chunks", "direct"})
    void roundTripsAcrossSegmentsAndReopens(String variant) throws Exception {
        // mmap-small-chunks: 4096-byte chunk mappings and none kept idle, so that ConsumeQueue files
        // (81920 bytes) span 20 chunks and every flushed, idle chunk is unmapped before the reopen.
        String name = variant.startsWith("mmap") ? "mmap" : variant;
        ConfigValues backendConfig = variant.equals("mmap-small-chunks")
                ? config().with("mmapChunkSize", "4096").with("mmapIdleMappingBytes", "0") : config();
        PluginContext context = new PluginContext(Clock.systemUTC(), scheduler, ByteBufAllocator.DEFAULT, root);
        List<PutResult> results = new ArrayList<>();
        StorageBackendProvider provider = ProviderRegistry.load(StorageBackendProvider.class).get(name);
        try (StorageBackend backend = provider.create(PluginConfig.of(provider.configKeys(), backendConfig), context)) {
            try (MessageStore store = open(backend)) {
                for (int i = 0; i < 150; i++) {
                    results.add(store.putMessage(TestMessages.message("Topic" + (i % 2), 0,
                            "body-" + i + "-" + "z".repeat(i * 13), "Tag" + (i % 3), "key" + i)).get(10, TimeUnit.SECONDS));
                }
                assertThat(store.getCommitLogMaxOffset()).isGreaterThan(2 * 65536L);
                verify(store, results);
            }
            assertThat(Files.exists(root.resolve("abort"))).isFalse();
            try (MessageStore store = open(backend)) {
                assertThat(store.recoveryReport().abnormal()).isFalse();
                verify(store, results);
            }
            Files.createFile(root.resolve("abort"));
            try (MessageStore store = open(backend)) {
                assertThat(store.recoveryReport().abnormal()).isTrue();
                assertThat(store.recoveryReport().corruptionFound()).isFalse();
                verify(store, results);
            }
        }
    }

    private static void verify(MessageStore store, List<PutResult> results) {
        for (int topic = 0; topic < 2; topic++) {
            assertThat(store.getMaxOffsetInQueue("Topic" + topic, 0)).isEqualTo(75);
            long offset = 0;
            while (offset < 75) {
                try (GetMessageResult read = store.getMessages("Topic" + topic, 0, offset, 32, t -> true, 1 << 20)) {
                    assertThat(read.status()).isEqualTo(GetMessageStatus.FOUND);
                    for (int i = 0; i < read.messages().size(); i++) {
                        ByteBuf record = read.messages().get(i);
                        int index = (int) (2 * read.queueOffsets().get(i) + topic);
                        StoredMessage stored = MessageDecoder.decode(record, record.readerIndex(), true);
                        PutResult expected = results.get(index);
                        assertThat(stored.commitLogOffset()).isEqualTo(expected.commitLogOffset());
                        assertThat(stored.queueOffset()).isEqualTo(expected.queueOffset());
                        assertThat(stored.storeTimestamp()).isEqualTo(expected.storeTimestamp());
                        assertThat(record.getInt(record.readerIndex() + MessageLayout.MAGIC))
                                .isEqualTo(MessageLayout.MAGIC_V1);
                        assertThat(new String(stored.message().body())).startsWith("body-" + index + "-");
                    }
                    offset = read.nextBeginOffset();
                }
            }
        }
        try (QueryMessageResult query = store.queryMessage("Topic1", "key149", 4, 0, Long.MAX_VALUE)) {
            assertThat(query.commitLogOffsets()).containsExactly(results.get(149).commitLogOffset());
        }
    }
}
