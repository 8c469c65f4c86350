package org.modmq.store.direct;

import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.modmq.api.config.ConfigValues;
import org.modmq.api.config.PluginConfig;
import org.modmq.api.spi.storage.StorageBackend;
import org.modmq.store.tck.StorageBackendContractTest;

/**
 * The storage contract with a one-block staging buffer and no read cache, so that every write that
 * leaves the staging window goes to the file and every read of older data goes to the file.
 */
class SmallBufferStorageBackendTest extends StorageBackendContractTest {

    private final TestContexts contexts = new TestContexts();

    @Override
    protected StorageBackend createBackend(Path storeRoot) {
        ConfigValues config = ConfigValues.empty().with(DirectConfig.WRITE_BUFFER_KEY, "4096")
                .with(DirectConfig.READ_CACHE_KEY, "0");
        return new DirectStorageBackendProvider().create(PluginConfig.of(DirectConfig.KEYS, config),
                contexts.contextFor(storeRoot));
    }

    @AfterEach
    void stopScheduler() {
        contexts.close();
    }
}
