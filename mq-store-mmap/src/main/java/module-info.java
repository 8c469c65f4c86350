/** StorageBackend over memory-mapped segment files. */
module org.modmq.store.mmap {
    requires org.modmq.api;
    requires org.slf4j;
}
