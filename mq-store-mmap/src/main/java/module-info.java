import org.modmq.api.spi.storage.StorageBackendProvider;
import org.modmq.store.mmap.MmapStorageBackendProvider;

/**
 * The {@code mmap} storage backend: segment files mapped into memory in 2 MiB chunks on first access,
 * written with absolute puts, read through zero-copy read-only views, forced with range msync; idle,
 * flushed chunks beyond a small budget are unmapped (their pages leave the process's resident set and
 * stay in the page cache), and everything is unmapped deterministically when the segment is closed and
 * its last view released. Exports nothing; the broker finds it with
 * {@link java.util.ServiceLoader} under the name {@code mmap}.
 *
 * @provides StorageBackendProvider
 */
module org.modmq.store.mmap {
    requires org.modmq.api;
    requires io.netty.buffer;
    requires io.netty.common;
    requires org.slf4j;
    requires jdk.unsupported;

    provides StorageBackendProvider with MmapStorageBackendProvider;
}
