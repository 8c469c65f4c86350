package org.modmq.store;

import io.netty.buffer.ByteBuf;
import org.modmq.api.spi.replication.ReplicatedLog;
import org.modmq.store.dispatch.DispatchAgent;
import org.modmq.store.format.TopicQueue;
import org.modmq.store.log.CommitLog;
import org.modmq.store.queue.ConsumeQueue;
import org.modmq.store.queue.ConsumeQueueTable;

/**
 * The CommitLog as replication sees it, with dispatch after each replicated append and ConsumeQueue
 * truncation after a truncate. Thread-safe.
 */
final class StoreReplicatedLog implements ReplicatedLog {

    private final CommitLog log;
    private final ConsumeQueueTable queues;
    private final DispatchAgent dispatch;

    StoreReplicatedLog(CommitLog log, ConsumeQueueTable queues, DispatchAgent dispatch) {
        this.log = log;
        this.queues = queues;
        this.dispatch = dispatch;
    }

    @Override
    public long maxOffset() {
        return log.maxOffset();
    }

    @Override
    public long minOffset() {
        return log.minOffset();
    }

    @Override
    public ByteBuf read(long offset, int maxLength) {
        return log.read(offset, maxLength);
    }

    @Override
    public void append(long offset, ByteBuf bytes) {
        log.append(offset, bytes);
        if (dispatch.dispatchedOffset() < log.minOffset()) {
            // an empty log started at a later segment: nothing below it exists to dispatch
            dispatch.resetTo(log.minOffset());
        }
        dispatch.doWork();
    }

    @Override
    public synchronized void truncate(long offset) {
        log.truncate(offset);
        for (ConsumeQueue queue : queues.all()) {
            queue.truncateTo(offset);
            log.queueOffsets().set(new TopicQueue(queue.topic(), queue.queueId()), queue.maxOffset());
        }
        dispatch.resetTo(Math.min(dispatch.dispatchedOffset(), offset));
    }
}
