package org.modmq.store;

import java.util.List;
import java.util.Objects;
import org.modmq.api.message.PutStatus;

/**
 * The answer to a put. With {@code FLUSH_DISK_TIMEOUT} the message is stored (offsets are set) but
 * was not forced in time; with any other non-OK status nothing was stored and offsets are -1.
 *
 * @param status the outcome
 * @param commitLogOffset offset of the first record
 * @param size bytes of all records
 * @param queueOffset queue offset of the first message
 * @param count messages stored
 * @param storeTimestamp STORETIMESTAMP of the records
 * @param msgIds the offsetMsgId of each record, in order
 * @param detail a reason for a failure, empty on success
 */
public record PutResult(PutStatus status, long commitLogOffset, int size, long queueOffset, int count,
                        long storeTimestamp, List<String> msgIds, String detail) {

    public PutResult {
        Objects.requireNonNull(status, "status");
        msgIds = List.copyOf(msgIds);
        Objects.requireNonNull(detail, "detail");
    }

    static PutResult failed(PutStatus status, String detail) {
        return new PutResult(status, -1, 0, -1, 0, 0, List.of(), detail);
    }

    /** One past the last written byte: what replication must acknowledge. */
    public long endOffset() {
        return commitLogOffset + size;
    }

    /** The comma-joined msgIds, as the send response carries them for a batch. */
    public String msgIdList() {
        return String.join(",", msgIds);
    }
}
