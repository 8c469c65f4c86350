package org.modmq.store.mmap;

import io.netty.buffer.UnpooledByteBufAllocator;
import java.nio.file.Path;
import java.time.Clock;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import org.junit.jupiter.api.AfterAll;
import org.modmq.api.config.ConfigValues;
import org.modmq.api.config.PluginConfig;
import org.modmq.api.spi.PluginContext;
import org.modmq.api.spi.storage.StorageBackend;
import org.modmq.store.tck.StorageBackendContractTest;

class MmapStorageBackendTest extends StorageBackendContractTest {

    private static final ScheduledExecutorService SCHEDULER = Executors.newSingleThreadScheduledExecutor();

    @AfterAll
    static void stopScheduler() {
        SCHEDULER.shutdownNow();
    }

    @Override
    protected StorageBackend createBackend(Path storeRoot) {
        PluginContext context = new PluginContext(Clock.systemUTC(), SCHEDULER, UnpooledByteBufAllocator.DEFAULT,
                storeRoot);
        return new MmapStorageBackendProvider().create(
                PluginConfig.of(new MmapStorageBackendProvider().configKeys(), ConfigValues.empty()), context);
    }
}
