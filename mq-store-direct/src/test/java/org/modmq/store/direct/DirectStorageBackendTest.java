package org.modmq.store.direct;

import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.modmq.api.config.ConfigValues;
import org.modmq.api.config.PluginConfig;
import org.modmq.api.spi.storage.StorageBackend;
import org.modmq.store.tck.StorageBackendContractTest;

/** The storage contract, run against the direct backend as the broker would load it. */
class DirectStorageBackendTest extends StorageBackendContractTest {

    private final TestContexts contexts = new TestContexts();

    @Override
    protected StorageBackend createBackend(Path storeRoot) {
        return new DirectStorageBackendProvider().create(PluginConfig.of(DirectConfig.KEYS, ConfigValues.empty()),
                contexts.contextFor(storeRoot));
    }

    @AfterEach
    void stopScheduler() {
        contexts.close();
    }
}
