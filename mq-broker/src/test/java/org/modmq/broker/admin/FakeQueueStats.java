package org.modmq.broker.admin;

import org.modmq.broker.runtime.QueueStatsSource;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/** A QueueStatsSource over maps the test fills: queue bounds and one store time per message. */
final class FakeQueueStats implements QueueStatsSource {

    private final Map<String, long[]> bounds = new ConcurrentHashMap<>();
    private final Map<String, Long> times = new ConcurrentHashMap<>();
    volatile long earliest = -1;
    volatile long commitLogMin;
    volatile long commitLogMax;
    volatile long unflushed;

    /** Queue holds [min, max); message i was stored at {@code firstTime + i}. */
    FakeQueueStats queue(String topic, int queueId, long min, long max, long firstTime) {
        bounds.put(topic + "/" + queueId, new long[] {min, max});
        for (long i = min; i < max; i++) {
            times.put(topic + "/" + queueId + "/" + i, firstTime + i);
        }
        return this;
    }

    @Override
    public long maxOffset(String topic, int queueId) {
        long[] b = bounds.get(topic + "/" + queueId);
        return b == null ? 0 : b[1];
    }

    @Override
    public long minOffset(String topic, int queueId) {
        long[] b = bounds.get(topic + "/" + queueId);
        return b == null ? 0 : b[0];
    }

    @Override
    public long storeTimestamp(String topic, int queueId, long queueOffset) {
        return times.getOrDefault(topic + "/" + queueId + "/" + queueOffset, -1L);
    }

    @Override
    public long earliestMessageTime() {
        return earliest;
    }

    @Override
    public long commitLogMinOffset() {
        return commitLogMin;
    }

    @Override
    public long commitLogMaxOffset() {
        return commitLogMax;
    }

    @Override
    public long unflushedBytes() {
        return unflushed;
    }
}
