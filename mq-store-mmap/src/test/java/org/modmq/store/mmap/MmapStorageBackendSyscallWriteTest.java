package org.modmq.store.mmap;

import java.nio.file.Path;
import org.modmq.api.spi.storage.StorageBackend;
import org.modmq.store.tck.StorageBackendContractTest;

/**
 * The storage contract with every write of 100 bytes or more going through {@code pwrite} while smaller
 * ones use the mapping, and small chunks: both kinds of write land in the same chunks, reads see both,
 * and flushes force both.
 */
class MmapStorageBackendSyscallWriteTest extends StorageBackendContractTest {

    @Override
    protected StorageBackend createBackend(Path storeRoot) {
        return new MmapStorageBackend(false, 5000, 0, 100);
    }
}
