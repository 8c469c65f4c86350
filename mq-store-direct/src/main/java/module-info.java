/**
 * A {@link org.modmq.api.spi.storage.StorageBackend} over O_DIRECT file I/O: block-aligned buffers, an
 * in-memory staging buffer for the not-yet-durable tail of each segment and a small read cache of its
 * own, so that nothing depends on the page cache. Chosen with {@code storeBackend=direct}. Exports
 * nothing; the broker finds it through {@link java.util.ServiceLoader}.
 *
 * @provides org.modmq.api.spi.storage.StorageBackendProvider
 */
module org.modmq.store.direct {
    requires org.modmq.api;
    requires org.slf4j;
    requires jdk.unsupported;

    provides org.modmq.api.spi.storage.StorageBackendProvider
            with org.modmq.store.direct.DirectStorageBackendProvider;
}
