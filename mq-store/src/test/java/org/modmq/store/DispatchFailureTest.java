package org.modmq.store;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
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
import org.modmq.api.message.PutStatus;
import org.modmq.api.spi.PluginContext;
import org.modmq.api.spi.ProviderRegistry;
import org.modmq.api.spi.flush.FlushPolicyProvider;
import org.modmq.api.spi.storage.Segment;
import org.modmq.api.spi.storage.StorageBackend;
import org.modmq.store.format.MessageDecoder;
import org.modmq.testkit.NettyLeakCheck;

/**
 * Dispatch failing with an exception that is not a storage error (a bug, or a record it cannot handle):
 * the put that triggered it still answers, the store refuses writes with the reason instead of letting
 * the exception escape, and the health probe dispatches the record once dispatch works again.
 */
@Timeout(60)
@ExtendWith(NettyLeakCheck.class)
class DispatchFailureTest {

    @TempDir
    Path root;

    private final ScheduledExecutorService scheduler = Executors.newScheduledThreadPool(2);
    private volatile boolean failQueueFiles;

    @AfterEach
    void stop() {
        scheduler.shutdownNow();
    }

    /** File-channel segments; opening a ConsumeQueue file throws an IllegalStateException while asked to. */
    private final class QueueOpenFails implements StorageBackend {
        private final FileChannelTestBackend files = new FileChannelTestBackend();

        @Override
        public String name() {
            return "queue-open-fails";
        }

        @Override
        public Segment open(Path file, int capacity) {
            if (failQueueFiles && file.toString().contains("consumequeue")) {
                throw new IllegalStateException("simulated bug opening " + file.getFileName());
            }
            return files.open(file, capacity);
        }

        @Override
        public void close() {
            files.close();
        }
    }

    @Test
    void anUnexpectedDispatchErrorMakesTheStoreUnwritableUntilDispatchWorks() throws Exception {
        ConfigValues values = ConfigValues.of(Map.of("flushDiskType", "SYNC_FLUSH", "storePathRootDir", root.toString(),
                "mappedFileSizeCommitLog", "65536", "mappedFileSizeConsumeQueue", "4000", "maxHashSlotNum", "64",
                "maxIndexNum", "512", MessageStore.PROBE_INTERVAL_KEY, "20"));
        StoreConfig config = StoreConfig.from(values, root);
        PluginContext context = new PluginContext(Clock.systemUTC(), scheduler, ByteBufAllocator.DEFAULT, root);
        try (StorageBackend backend = new QueueOpenFails();
             MessageStore store = MessageStore.open(config, backend,
                     ProviderRegistry.load(FlushPolicyProvider.class).get("SYNC_FLUSH"), context, () -> 0)) {
            failQueueFiles = true;
            PutResult stored = store.putMessage(TestMessages.message("Fresh", 0, "first")).get(20, TimeUnit.SECONDS);
            assertThat(stored.status()).as("stored and forced in the CommitLog").isEqualTo(PutStatus.PUT_OK);
            assertThat(store.getMaxOffsetInQueue("Fresh", 0)).as("not dispatched, so not served").isZero();
            assertThat(store.writable()).isFalse();
            assertThat(store.unwritableReason()).contains("dispatch failed").contains("simulated bug");
            assertThat(store.putMessage(TestMessages.message("Fresh", 0, "refused")).get(20, TimeUnit.SECONDS).status())
                    .isEqualTo(PutStatus.SERVICE_NOT_AVAILABLE);

            failQueueFiles = false;
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (!store.writable() && System.nanoTime() < deadline) {
                Thread.sleep(10);
            }
            assertThat(store.writable()).as("the probe dispatched the record").isTrue();
            try (GetMessageResult read = store.getMessages("Fresh", 0, 0, 1, t -> true, 1 << 20)) {
                assertThat(read.status()).isEqualTo(GetMessageStatus.FOUND);
                ByteBuf record = read.messages().get(0);
                assertThat(new String(MessageDecoder.decode(record, record.readerIndex(), true).message().body(),
                        StandardCharsets.UTF_8)).isEqualTo("first");
            }
        }
    }
}
