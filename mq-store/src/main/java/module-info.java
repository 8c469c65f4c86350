/**
 * The backend-agnostic store: CommitLog, ConsumeQueues, index, dispatch, recovery, retention, flush
 * policies. The public API is {@link org.modmq.store.MessageStore} and its value types; every other
 * package is internal.
 */
module org.modmq.store {
    requires transitive org.modmq.api;
    requires org.slf4j;

    exports org.modmq.store;

    provides org.modmq.api.spi.flush.FlushPolicyProvider
            with org.modmq.store.flush.SyncFlushPolicyProvider, org.modmq.store.flush.AsyncFlushPolicyProvider;
}
