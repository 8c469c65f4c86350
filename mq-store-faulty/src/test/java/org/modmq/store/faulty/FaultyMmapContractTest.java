package org.modmq.store.faulty;

import java.nio.file.Path;
import org.modmq.api.config.ConfigValues;
import org.modmq.api.config.PluginConfig;
import org.modmq.api.spi.storage.StorageBackend;
import org.modmq.store.faulty.control.FaultyStorage;
import org.modmq.store.tck.StorageBackendContractTest;

/** The storage contract, faults off, through the provider as the broker loads it, wrapping mmap. */
class FaultyMmapContractTest extends StorageBackendContractTest {

    @Override
    protected StorageBackend createBackend(Path storeRoot) {
        FaultyStorageBackendProvider provider = new FaultyStorageBackendProvider();
        return provider.create(PluginConfig.of(provider.configKeys(),
                ConfigValues.empty().with(FaultyStorage.DELEGATE_KEY, "mmap")), TestContext.of(storeRoot));
    }
}
