package org.modmq.store.mmap;

import java.nio.file.Path;
import org.modmq.api.spi.storage.StorageBackend;
import org.modmq.store.tck.StorageBackendContractTest;

/**
 * The storage contract with chunks far smaller than the contract's segments and not a multiple of the
 * page size, and no idle budget: most reads cross a chunk boundary and every idle, flushed chunk is
 * unmapped at once.
 */
class MmapStorageBackendChunkedTest extends StorageBackendContractTest {

    @Override
    protected StorageBackend createBackend(Path storeRoot) {
        return new MmapStorageBackend(false, 5000, 0);
    }
}
