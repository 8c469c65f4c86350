package org.modmq.examples.filechannel;

import io.netty.buffer.UnpooledByteBufAllocator;
import java.nio.file.Path;
import java.time.Clock;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.modmq.api.config.ConfigValues;
import org.modmq.api.config.PluginConfig;
import org.modmq.api.spi.PluginContext;
import org.modmq.api.spi.storage.StorageBackend;
import org.modmq.store.tck.StorageBackendContractTest;

/** The storage TCK, run against this plugin the way the broker creates it. */
class FileChannelStorageTest extends StorageBackendContractTest {

    private static final ScheduledExecutorService SCHEDULER = Executors.newSingleThreadScheduledExecutor();

    @AfterAll
    static void stopScheduler() {
        SCHEDULER.shutdownNow();
    }

    @Override
    protected StorageBackend createBackend(Path storeRoot) {
        PluginContext context = new PluginContext(Clock.systemUTC(), SCHEDULER, UnpooledByteBufAllocator.DEFAULT,
                storeRoot);
        return new FileChannelStorageProvider().create(PluginConfig.of(List.of(), ConfigValues.empty()), context);
    }
}
