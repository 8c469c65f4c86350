package org.modmq.store;

import io.netty.buffer.ByteBuf;
import java.util.ArrayList;
import java.util.List;
import java.util.function.LongPredicate;
import org.modmq.api.spi.storage.StorageException;
import org.modmq.store.log.CommitLog;
import org.modmq.store.queue.ConsumeQueue;
import org.modmq.store.queue.ConsumeQueueEntry;
import org.modmq.store.queue.ConsumeQueueTable;

/** The pull read path: ConsumeQueue entries → stored records. Thread-safe (reads only). */
final class MessageReader {

    private static final int MAX_SCAN_BYTES = 16_000;

    private final CommitLog log;
    private final ConsumeQueueTable queues;

    MessageReader(CommitLog log, ConsumeQueueTable queues) {
        this.log = log;
        this.queues = queues;
    }

    GetMessageResult read(String topic, int queueId, long offset, int maxCount, LongPredicate tagFilter,
                          int maxBytes) {
        ConsumeQueue queue = queues.get(topic, queueId, false);
        if (queue == null) {
            return empty(GetMessageStatus.NO_MATCHED_LOGIC_QUEUE, 0, 0, 0);
        }
        long min = queue.minOffset();
        long max = queue.maxOffset();
        if (max == 0 || min == max) {
            return empty(GetMessageStatus.NO_MESSAGE_IN_QUEUE, offset == 0 ? 0 : max, min, max);
        }
        if (offset < min) {
            return empty(GetMessageStatus.OFFSET_TOO_SMALL, min, min, max);
        }
        if (offset == max) {
            return empty(GetMessageStatus.OFFSET_OVERFLOW_ONE, offset, min, max);
        }
        if (offset > max) {
            return empty(GetMessageStatus.OFFSET_OVERFLOW_BADLY, max, min, max);
        }
        int maxScan = Math.max(MAX_SCAN_BYTES, maxCount * ConsumeQueue.ENTRY) / ConsumeQueue.ENTRY;
        List<ByteBuf> found = new ArrayList<>();
        List<Long> offsets = new ArrayList<>();
        long next = offset;
        int bytes = 0;
        int scanned = 0;
        boolean removed = false;
        scan:
        while (found.size() < maxCount && scanned < maxScan && next < max) {
            List<ConsumeQueueEntry> entries = queue.entries(next, Math.min(maxScan - scanned, 1024));
            if (entries.isEmpty()) {
                if (found.isEmpty() && scanned == 0) {
                    return empty(GetMessageStatus.OFFSET_FOUND_NULL, queue.nextSegmentOffset(next), min, max);
                }
                break;
            }
            for (ConsumeQueueEntry entry : entries) {
                if (found.size() >= maxCount) {
                    break scan;
                }
                scanned++;
                if (!tagFilter.test(entry.tagCode())) {
                    next = entry.queueOffset() + 1;
                    continue;
                }
                if (!found.isEmpty() && bytes + entry.size() > maxBytes) {
                    break scan;
                }
                ByteBuf record;
                try {
                    record = log.readRecord(entry.commitLogOffset(), entry.size());
                } catch (StorageException e) {
                    // Nothing of a failed read is handed out: the pull is answered with the error.
                    found.forEach(ByteBuf::release);
                    throw e;
                }
                next = entry.queueOffset() + 1;
                if (record == null) {
                    removed = true;
                    continue;
                }
                found.add(record);
                offsets.add(entry.queueOffset());
                bytes += entry.size();
            }
        }
        GetMessageStatus status = !found.isEmpty() ? GetMessageStatus.FOUND
                : removed ? GetMessageStatus.MESSAGE_WAS_REMOVING : GetMessageStatus.NO_MATCHED_MESSAGE;
        return new GetMessageResult(status, next, min, max, found, offsets);
    }

    private static GetMessageResult empty(GetMessageStatus status, long next, long min, long max) {
        return new GetMessageResult(status, next, min, max, List.of(), List.of());
    }
}
