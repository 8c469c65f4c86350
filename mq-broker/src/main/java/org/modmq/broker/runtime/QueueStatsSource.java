package org.modmq.broker.runtime;

/**
 * What the admin processors read from the message store. Offsets are ConsumeQueue indexes (message
 * counts); CommitLog offsets are bytes; times are epoch milliseconds. Implemented by the store
 * adapter over {@code org.modmq.store.MessageStore}; {@link #EMPTY} stands for a broker without a
 * store. Implementations are thread-safe and answer without blocking on slow I/O.
 */
public interface QueueStatsSource {

    /** A store that holds nothing: every queue empty, no timestamps. */
    QueueStatsSource EMPTY = new QueueStatsSource() {
        @Override
        public long maxOffset(String topic, int queueId) {
            return 0;
        }

        @Override
        public long minOffset(String topic, int queueId) {
            return 0;
        }

        @Override
        public long storeTimestamp(String topic, int queueId, long queueOffset) {
            return -1;
        }

        @Override
        public long earliestMessageTime() {
            return -1;
        }

        @Override
        public long commitLogMinOffset() {
            return 0;
        }

        @Override
        public long commitLogMaxOffset() {
            return 0;
        }
    };

    /** The next offset to be written in the queue; 0 for an unknown queue. */
    long maxOffset(String topic, int queueId);

    /** The first offset still held in the queue; 0 for an unknown or empty queue. */
    long minOffset(String topic, int queueId);

    /** Store time of the message at {@code queueOffset}, or -1 when that message is not held. */
    long storeTimestamp(String topic, int queueId, long queueOffset);

    /**
     * Store time of the oldest message held anywhere on this broker, or -1 when it holds none
     * ({@code MessageStore.getEarliestMessageTime(topic, queueId)} minimised over every queue).
     */
    long earliestMessageTime();

    /** First CommitLog byte offset still held. */
    long commitLogMinOffset();

    /** CommitLog byte offset after the last written message. */
    long commitLogMaxOffset();

    /** CommitLog bytes written but not yet dispatched to the ConsumeQueues; 0 when unknown. */
    default long dispatchBehindBytes() {
        return 0;
    }

    /** CommitLog bytes written but not yet flushed to disk; 0 when unknown. */
    default long unflushedBytes() {
        return 0;
    }
}
