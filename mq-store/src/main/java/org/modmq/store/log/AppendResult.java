package org.modmq.store.log;

import java.util.List;
import java.util.Objects;
import org.modmq.api.message.PutStatus;

/**
 * The outcome of one CommitLog append (one message or one batch).
 *
 * @param status PUT_OK or why nothing was written
 * @param commitLogOffset offset of the first record, -1 on failure
 * @param size bytes written (all records), 0 on failure
 * @param queueOffset queue offset of the first message (0 for a prepared or rolled-back transaction
 *     record, which takes none), -1 on failure
 * @param count messages written
 * @param storeTimestamp STORETIMESTAMP given to the records
 * @param recordOffsets commit-log offset of each record
 * @param detail a human-readable reason for a failure, empty on success
 */
public record AppendResult(PutStatus status, long commitLogOffset, int size, long queueOffset, int count,
                           long storeTimestamp, List<Long> recordOffsets, String detail) {

    public AppendResult {
        Objects.requireNonNull(status, "status");
        recordOffsets = List.copyOf(recordOffsets);
    }

    public static AppendResult failed(PutStatus status, String detail) {
        return new AppendResult(status, -1, 0, -1, 0, 0, List.of(), detail);
    }

    /** The offset just past the written bytes. */
    public long endOffset() {
        return commitLogOffset + size;
    }

    public boolean ok() {
        return status == PutStatus.PUT_OK;
    }
}
