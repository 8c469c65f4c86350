package org.modmq.store.recovery;

/**
 * The {@code checkpoint} file's fields: RocketMQ's five int64 at the start of the file, then one of
 * modmq's own (RocketMQ reads only the first five).
 *
 * @param physicMsgTimestamp store time of the newest record in the CommitLog
 * @param logicsMsgTimestamp store time of the newest record dispatched to a ConsumeQueue
 * @param indexMsgTimestamp store time of the newest indexed record
 * @param masterFlushedOffset CommitLog offset below which everything was durable
 * @param confirmPhyOffset CommitLog end at the time of writing (trusted after a clean close)
 * @param logicsFlushedOffset CommitLog offset below which every ConsumeQueue and index entry was forced
 *     to disk (after a clean close: where dispatch had got to, in controller mode the confirm offset);
 *     recovery re-dispatches from here at the latest (0 when unknown)
 */
public record Checkpoint(long physicMsgTimestamp, long logicsMsgTimestamp, long indexMsgTimestamp,
                         long masterFlushedOffset, long confirmPhyOffset,
                         long logicsFlushedOffset) {

    public static final Checkpoint EMPTY = new Checkpoint(0, 0, 0, 0, 0, 0);

    /** This checkpoint with no offset beyond {@code end} (the log was cut back there). */
    public Checkpoint cappedAt(long end) {
        return new Checkpoint(physicMsgTimestamp, logicsMsgTimestamp, indexMsgTimestamp,
                Math.min(masterFlushedOffset, end), Math.min(confirmPhyOffset, end), Math.min(logicsFlushedOffset, end));
    }
}
