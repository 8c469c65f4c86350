import org.modmq.api.spi.storage.StorageBackendProvider;
import org.modmq.store.faulty.FaultyStorageBackendProvider;

/**
 * A test storage backend, {@code storeBackend=faulty}: it wraps another backend (chosen by
 * {@code faultyDelegate}, {@code mmap} by default) and, under the control of a test, fails writes,
 * forces, reads and segment creation with EIO or ENOSPC, slows forces down, and simulates a power loss
 * that drops every byte not forced. Not part of the distribution.
 *
 * <p>Unlike the production plugins it exports one package, {@code org.modmq.store.faulty.control}, the
 * switchboard tests drive it with; the provider itself is found by {@link java.util.ServiceLoader}.
 *
 * @provides StorageBackendProvider
 */
module org.modmq.store.faulty {
    requires transitive org.modmq.api;
    requires io.netty.buffer;
    requires org.slf4j;

    exports org.modmq.store.faulty.control;

    provides StorageBackendProvider with FaultyStorageBackendProvider;
}
