package org.modmq.broker.runtime;

/**
 * What the metadata processors need to know about a ConsumeQueue, implemented by the message-store
 * adapter. Offsets are ConsumeQueue indexes (message counts), not CommitLog byte offsets.
 * Implementations are thread-safe and answer without blocking on I/O.
 */
public interface QueueOffsets {

    /** The first offset still available in the queue; 0 for an unknown or empty queue. */
    long minOffset(String topic, int queueId);

    /** The next offset to be written (the number of entries ever written); 0 for an unknown queue. */
    long maxOffset(String topic, int queueId);

    /**
     * Whether the message at {@code offset} exists and is still within the hot (page-cache) window,
     * which decides the new-group rule of QUERY_CONSUMER_OFFSET. False for an empty queue.
     */
    boolean isInMemory(String topic, int queueId, long offset);
}
