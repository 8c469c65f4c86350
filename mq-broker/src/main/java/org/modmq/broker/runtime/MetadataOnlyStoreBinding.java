package org.modmq.broker.runtime;

import org.slf4j.LoggerFactory;

/**
 * The binding used while no message store is wired: every queue is empty and no data-path processor
 * is registered (SEND and PULL answer REQUEST_CODE_NOT_SUPPORTED). It exists so that the metadata
 * side of the broker (heartbeats, offsets, topic and group admin, registration) runs on its own; it
 * stores no messages. Stateless and thread-safe.
 */
public final class MetadataOnlyStoreBinding implements StoreBinding, QueueOffsets {

    public static final StoreBindingFactory FACTORY = runtime -> {
        LoggerFactory.getLogger(MetadataOnlyStoreBinding.class)
                .warn("no message store is wired: the broker runs metadata-only and refuses sends and pulls");
        return new MetadataOnlyStoreBinding();
    };

    @Override
    public QueueOffsets queueOffsets() {
        return this;
    }

    @Override
    public void registerProcessors(ProcessorRegistrar registrar) {
        // Nothing to register: without a store there is no data path.
    }

    @Override
    public void deleteTopicQueues(String topic) {
        // No queues exist.
    }

    @Override
    public long minOffset(String topic, int queueId) {
        return 0;
    }

    @Override
    public long maxOffset(String topic, int queueId) {
        return 0;
    }

    @Override
    public boolean isInMemory(String topic, int queueId, long offset) {
        return false;
    }

    @Override
    public void close() {
        // Owns nothing.
    }
}
