package org.modmq.broker.data;

import java.util.Objects;
import org.modmq.broker.runtime.QueueStatsSource;
import org.modmq.store.MessageStore;

/** {@link QueueStatsSource} over the open {@link MessageStore}. Thread-safe as the store is. */
final class StoreQueueStats implements QueueStatsSource {

    private final MessageStore store;

    StoreQueueStats(MessageStore store) {
        this.store = Objects.requireNonNull(store, "store");
    }

    @Override
    public long maxOffset(String topic, int queueId) {
        return store.getMaxOffsetInQueue(topic, queueId);
    }

    @Override
    public long minOffset(String topic, int queueId) {
        return store.getMinOffsetInQueue(topic, queueId);
    }

    @Override
    public long storeTimestamp(String topic, int queueId, long queueOffset) {
        return store.getMessageStoreTimestamp(topic, queueId, queueOffset);
    }

    @Override
    public long earliestMessageTime() {
        long earliest = -1;
        for (String topic : store.topics()) {
            for (int queueId : store.queueIds(topic)) {
                long time = store.getEarliestMessageTime(topic, queueId);
                if (time > 0 && (earliest < 0 || time < earliest)) {
                    earliest = time;
                }
            }
        }
        return earliest;
    }

    @Override
    public long commitLogMinOffset() {
        return store.getCommitLogMinOffset();
    }

    @Override
    public long commitLogMaxOffset() {
        return store.getCommitLogMaxOffset();
    }

    @Override
    public long unflushedBytes() {
        return Math.max(0, store.getCommitLogMaxOffset() - store.getFlushedOffset());
    }
}
