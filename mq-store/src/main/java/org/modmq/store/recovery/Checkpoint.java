package org.modmq.store.recovery;

/**
 * The {@code checkpoint} file's fields (RocketMQ layout: five int64 at the start of the file).
 *
 * @param physicMsgTimestamp store time of the newest record in the CommitLog
 * @param logicsMsgTimestamp store time of the newest record dispatched to a ConsumeQueue
 * @param indexMsgTimestamp store time of the newest indexed record
 * @param masterFlushedOffset CommitLog offset below which everything was durable
 * @param confirmPhyOffset CommitLog end at the time of writing (trusted after a clean close)
 */
public record Checkpoint(long physicMsgTimestamp, long logicsMsgTimestamp, long indexMsgTimestamp,
                         long masterFlushedOffset, long confirmPhyOffset) {

    public static final Checkpoint EMPTY = new Checkpoint(0, 0, 0, 0, 0);
}
