package org.modmq.store.queue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.modmq.api.spi.storage.Segment;
import org.modmq.store.segment.SegmentFiles;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The ConsumeQueue of one topic-queue: 20-byte entries ({@code int64 commit-log offset, int32 size,
 * int64 tag code}); entry {@code i} sits at logical byte {@code i * 20}. Segment files are named by
 * their logical start byte; each holds {@code entriesPerSegment} entries in a file rounded up to a
 * multiple of 4096 bytes (the rounding is unused), so the same files work on every backend.
 *
 * <p>Holes: queue offsets are dense (the CommitLog gives a prepared or rolled-back transaction record
 * none), but a store written by an earlier modmq gave such records an offset and no entry, so its
 * queues may hold empty entries, which reads skip. Recovery does not close them, because it cannot
 * without changing what the offsets mean: each record's QUEUEOFFSET is stamped in the CommitLog (and in
 * every replica's copy, byte for byte), dispatch rebuilds entries from those stamped values, and
 * consumer groups have committed offsets against them; renumbering would point committed offsets at
 * other messages (redelivering or skipping them) and make master and replicas disagree.
 *
 * <p>Threads: one writer (dispatch, recovery, retention); any number of readers. {@link #maxOffset()}
 * is volatile and published after the entry is written.
 */
public final class ConsumeQueue implements AutoCloseable {

    public static final int ENTRY = 20;
    /** Entries read at a time when looking for a dense queue's end (64 000 bytes). */
    private static final int SCAN_ENTRIES = 3200;
    private static final Logger LOG = LoggerFactory.getLogger(ConsumeQueue.class);

    private final String topic;
    private final int queueId;
    private final SegmentFiles files;
    private final ByteBuf scratch = Unpooled.buffer(ENTRY, ENTRY);
    private volatile long minOffset;
    private volatile long maxOffset;

    public ConsumeQueue(String topic, int queueId, SegmentFiles files) {
        this(topic, queueId, files, false);
    }

    /**
     * @param dense whether this queue was written only by a modmq that gives every queue offset its entry
     *              ({@link ConsumeQueueTable} knows): then its end is found by reading the written entries
     *              of its last file only, not the whole file (see {@link #recoverBounds})
     */
    public ConsumeQueue(String topic, int queueId, SegmentFiles files, boolean dense) {
        this.topic = Objects.requireNonNull(topic, "topic");
        this.queueId = queueId;
        this.files = Objects.requireNonNull(files, "files");
        if (files.span() % ENTRY != 0) {
            throw new IllegalArgumentException("segment span " + files.span() + " is not a multiple of " + ENTRY);
        }
        files.load();
        if (dense) {
            recoverDenseBounds();
        } else {
            recoverBounds();
        }
    }

    /** Physical file size for {@code entries} entries: rounded up to a multiple of 4096. */
    public static int fileCapacity(int entries) {
        long bytes = (long) entries * ENTRY;
        return (int) ((bytes + 4095) / 4096 * 4096);
    }

    public String topic() {
        return topic;
    }

    public int queueId() {
        return queueId;
    }

    /** The first entry still held. */
    public long minOffset() {
        return minOffset;
    }

    /** The number of entries written (one past the last). */
    public long maxOffset() {
        return maxOffset;
    }

    /**
     * Bounds at open: max is one past the last entry held in any file, min the first entry held. A file
     * may hold no entry at all: dispatch created it when the queue crossed into it, and a power loss took
     * every entry written since the queue's last force. Its start is then no bound: the earlier files may
     * have lost their tail, or every entry, too, and re-dispatch must write those entries again.
     */
    private void recoverBounds() {
        if (files.isEmpty()) {
            return;
        }
        long max = files.firstStart() / ENTRY;
        List<Long> starts = files.starts();
        for (int i = starts.size() - 1; i >= 0; i--) {
            long end = endOfEntries(starts.get(i));
            if (end >= 0) {
                max = end;
                break;
            }
        }
        maxOffset = max;
        minOffset = Math.min(max, firstNonEmpty(files.firstStart() / ENTRY, max));
    }

    /**
     * Bounds at open of a dense queue: max is its first missing entry, as in RocketMQ. Entries are written
     * in order from the queue's first one, which may sit inside its first file (a replica that started
     * in the middle of its master's log), so every later file is full up to the last that holds its first
     * entry (a power loss can take the tail of one before it as well: then the end is there). Only that
     * file's written entries and one more are read: a backward scan of a mostly empty file reads every
     * page of it, and the kernel fills each one with zeros first (tens of ms per queue at every start).
     * An entry a power loss kept beyond the first missing one is below no bound: re-dispatch writes all
     * of them again, where a backward scan would have left a hole below the max that reads skip. The
     * first file, whose entries may start anywhere, is scanned backwards as before.
     */
    private void recoverDenseBounds() {
        if (files.isEmpty()) {
            return;
        }
        List<Long> starts = files.starts();
        int perFile = (int) (files.span() / ENTRY);
        int last = starts.size() - 1;
        while (last > 0 && !holds(starts.get(last), 0)) {
            last--;
        }
        while (last > 0 && !holds(starts.get(last - 1), perFile - 1)) {
            last--;
        }
        long start = starts.get(last);
        long max;
        if (holds(start, 0)) {
            max = start / ENTRY + firstMissing(start, perFile);
        } else {
            long end = endOfEntries(start);
            max = end >= 0 ? end : start / ENTRY;
        }
        maxOffset = max;
        minOffset = Math.min(max, firstNonEmpty(files.firstStart() / ENTRY, max));
    }

    /** Whether entry {@code index} of the file starting at logical byte {@code start} is held. */
    private boolean holds(long start, int index) {
        ByteBuf view = files.find(start).read(index * ENTRY, ENTRY);
        try {
            return view.getInt(view.readerIndex() + 8) > 0;
        } finally {
            view.release();
        }
    }

    /** The index of the first entry not held in the file starting at {@code start}; {@code perFile} when full. */
    private int firstMissing(long start, int perFile) {
        Segment segment = files.find(start);
        for (int from = 0; from < perFile; from += SCAN_ENTRIES) {
            int count = Math.min(SCAN_ENTRIES, perFile - from);
            ByteBuf view = segment.read(from * ENTRY, count * ENTRY);
            try {
                for (int i = 0; i < count; i++) {
                    if (view.getInt(view.readerIndex() + i * ENTRY + 8) <= 0) {
                        return from + i;
                    }
                }
            } finally {
                view.release();
            }
        }
        return perFile;
    }

    /** One past the last entry held in the file starting at logical byte {@code start}; -1 when it holds none. */
    private long endOfEntries(long start) {
        ByteBuf view = files.find(start).read(0, (int) files.span());
        try {
            for (int i = (int) (files.span() / ENTRY) - 1; i >= 0; i--) {
                if (view.getInt(view.readerIndex() + i * ENTRY + 8) > 0) {
                    return start / ENTRY + i + 1;
                }
            }
            return -1;
        } finally {
            view.release();
        }
    }

    private long firstNonEmpty(long from, long max) {
        for (long offset = from; offset < max; offset++) {
            ConsumeQueueEntry entry = entry(offset);
            if (entry != null && entry.size() > 0) {
                return offset;
            }
        }
        return max;
    }

    /**
     * Writes the entry for {@code queueOffset}. An entry already held is left alone (re-dispatch);
     * a gap is logged and skipped over.
     *
     * @return whether an entry was written
     */
    public boolean put(long queueOffset, long commitLogOffset, int size, long tagCode) {
        long max = maxOffset;
        if (queueOffset < max) {
            return false;
        }
        if (queueOffset > max) {
            LOG.warn("ConsumeQueue {}-{}: entry {} leaves a gap after {}", topic, queueId, queueOffset, max);
            if (max == minOffset) {
                minOffset = queueOffset;
            }
        }
        long logical = queueOffset * ENTRY;
        long start = files.startOf(logical);
        scratch.clear().writeLong(commitLogOffset).writeInt(size).writeLong(tagCode);
        files.getOrCreate(start).write((int) (logical - start), scratch);
        maxOffset = queueOffset + 1;
        return true;
    }

    /** The entry at {@code queueOffset}, or null when not held. */
    public ConsumeQueueEntry entry(long queueOffset) {
        List<ConsumeQueueEntry> one = entries(queueOffset, 1);
        return one.isEmpty() ? null : one.get(0);
    }

    /**
     * Up to {@code maxCount} entries from {@code from}, never beyond the end of its segment or the max
     * offset. Empty when the segment file is missing.
     */
    public List<ConsumeQueueEntry> entries(long from, int maxCount) {
        long max = maxOffset;
        if (from < 0 || from >= max || maxCount <= 0) {
            return List.of();
        }
        long logical = from * ENTRY;
        long start = files.startOf(logical);
        Segment segment = files.find(logical);
        if (segment == null) {
            return List.of();
        }
        long segmentEnd = (start + files.span()) / ENTRY;
        int count = (int) Math.min(maxCount, Math.min(max, segmentEnd) - from);
        ByteBuf view;
        try {
            view = segment.read((int) (logical - start), count * ENTRY);
        } catch (IllegalStateException e) {
            return List.of();
        }
        try {
            List<ConsumeQueueEntry> out = new ArrayList<>(count);
            int base = view.readerIndex();
            for (int i = 0; i < count; i++) {
                int at = base + i * ENTRY;
                out.add(new ConsumeQueueEntry(from + i, view.getLong(at), view.getInt(at + 8), view.getLong(at + 12)));
            }
            return out;
        } finally {
            view.release();
        }
    }

    /** The first queue offset of the segment after the one holding {@code queueOffset}. */
    public long nextSegmentOffset(long queueOffset) {
        return (files.startOf(queueOffset * ENTRY) + files.span()) / ENTRY;
    }

    /**
     * Drops every entry whose record does not end at or below {@code commitLogEnd} (recovery, replica
     * truncation) and forces the cut before returning. An unforced cut is undone by the next power loss,
     * and dispatch never overwrites an entry below the max offset, so the dropped entries would come back
     * pointing into whatever the CommitLog wrote at their offsets since.
     *
     * @return whether any entry was dropped
     */
    public boolean truncateTo(long commitLogEnd) {
        long max = maxOffset;
        long keep = max;
        while (keep > minOffset) {
            ConsumeQueueEntry last = entry(keep - 1);
            if (last != null && last.size() > 0 && last.commitLogOffset() + last.size() <= commitLogEnd) {
                break;
            }
            keep--;
        }
        if (keep == max) {
            return false;
        }
        files.deleteFrom(files.startOf(keep * ENTRY) + files.span());
        scratch.clear().writeZero(ENTRY);
        for (long offset = keep; offset < max; offset++) {
            long logical = offset * ENTRY;
            Segment segment = files.find(logical);
            if (segment != null) {
                segment.write((int) (logical - files.startOf(logical)), scratch.setIndex(0, ENTRY));
            }
        }
        flush();
        maxOffset = keep;
        minOffset = Math.min(minOffset, keep);
        LOG.info("ConsumeQueue {}-{} truncated to {} entries", topic, queueId, keep);
        return true;
    }

    /**
     * Retention: raises the min offset past entries below {@code commitLogMin} and deletes segments
     * (never the last) whose every entry is below it.
     *
     * @return segments deleted
     */
    public int dropBelow(long commitLogMin) {
        int deleted = 0;
        List<Long> starts = files.starts();
        for (int i = 0; i < starts.size() - 1; i++) {
            long lastOffset = (starts.get(i) + files.span()) / ENTRY - 1;
            ConsumeQueueEntry last = entry(lastOffset);
            if (last == null || last.commitLogOffset() + last.size() > commitLogMin) {
                break;
            }
            files.delete(starts.get(i));
            deleted++;
        }
        long min = Math.max(minOffset, files.firstStart() / ENTRY);
        while (min < maxOffset) {
            ConsumeQueueEntry entry = entry(min);
            if (entry != null && entry.commitLogOffset() >= commitLogMin) {
                break;
            }
            min++;
        }
        minOffset = min;
        return deleted;
    }

    /**
     * The first queue offset whose record's store time is at or after {@code timestamp}, or
     * {@link #maxOffset()} when none is.
     *
     * @param storeTime STORETIMESTAMP of an entry (looked up in the CommitLog), -1 when unknown
     */
    public long offsetByTime(long timestamp, EntryTimestamps storeTime) {
        long low = minOffset;
        long high = maxOffset;
        while (low < high) {
            long mid = (low + high) >>> 1;
            ConsumeQueueEntry entry = entry(mid);
            long time = entry == null ? -1 : storeTime.of(entry);
            if (time >= 0 && time < timestamp) {
                low = mid + 1;
            } else {
                high = mid;
            }
        }
        return low;
    }

    /** Looks up the store time of an entry's record. */
    @FunctionalInterface
    public interface EntryTimestamps {
        long of(ConsumeQueueEntry entry);
    }


    /** Forces every entry written so far. May run while the dispatcher appends. */
    public void flush() {
        if (!files.isEmpty()) {
            files.flushAll();
        }
    }

    /** Forces the queue's files and closes them. Idempotent. */
    @Override
    public void close() {
        if (!files.isEmpty()) {
            files.flushAll();
        }
        files.close();
    }
}
