package org.modmq.store.log;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.modmq.store.format.TopicQueue;

/**
 * The next queue offset of each topic-queue. Thread-safe; {@link #next} and {@link #advance} are
 * called under the CommitLog's append lock, {@link #raiseTo} by dispatch of replicated records.
 */
public final class QueueOffsetTable {

    private final Map<TopicQueue, Long> next = new ConcurrentHashMap<>();

    /** The queue offset the next message of {@code queue} gets. */
    public long next(TopicQueue queue) {
        return next.getOrDefault(queue, 0L);
    }

    /** Sets the next queue offset after an append of {@code count} messages starting at {@code first}. */
    public void advance(TopicQueue queue, long first, int count) {
        next.merge(queue, first + count, Math::max);
    }

    /** Raises the counter to at least {@code value}. */
    public void raiseTo(TopicQueue queue, long value) {
        next.merge(queue, value, Math::max);
    }

    /** Sets the counter (recovery, truncation). */
    public void set(TopicQueue queue, long value) {
        next.put(queue, value);
    }
}
