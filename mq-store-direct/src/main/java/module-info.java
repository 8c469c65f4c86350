/** StorageBackend over O_DIRECT file I/O. */
module org.modmq.store.direct {
    requires org.modmq.api;
    requires org.slf4j;
    requires jdk.unsupported;
}
