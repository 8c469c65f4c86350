package org.modmq.store.index;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.util.List;
import java.util.Objects;
import org.modmq.api.spi.storage.Segment;

/**
 * One index file (RocketMQ's layout): a 40-byte header, {@code slots} int32 hash slots and
 * {@code maxEntries} 20-byte entries, the file rounded up to a multiple of 4096 bytes.
 *
 * <pre>
 * header: int64 beginTimestamp | int64 endTimestamp | int64 beginPhyOffset | int64 endPhyOffset
 *         | int32 hashSlotCount (slots in use) | int32 indexCount (next entry; starts at 1)
 * slot:   int32 newest entry index of the slot (0 = empty)
 * entry:  int32 keyHash | int64 commit-log offset | int32 seconds since beginTimestamp | int32 previous entry
 * </pre>
 *
 * <p>While a file takes entries, its slot region lives in a {@link SlotTable} and its header in fields;
 * entries go to the segment at once, slots and header only on {@link #writeThrough()} (slots first),
 * which the store calls at every checkpoint, when the file fills and at close. After a crash the
 * header therefore names the last entry written through, and recovery re-indexes the records after
 * its {@code endPhyOffset} (entries beyond {@code indexCount} are overwritten).
 *
 * <p>Not thread-safe: {@link IndexStore} serializes access.
 */
final class IndexFile implements AutoCloseable {

    static final int HEADER = 40;
    static final int ENTRY = 20;

    private final Segment segment;
    private final int slots;
    private final int maxEntries;
    private final ByteBuf scratch = Unpooled.buffer(HEADER, HEADER);
    private long beginTimestamp;
    private long endTimestamp;
    private long beginPhyOffset;
    private long endPhyOffset;
    private int slotsUsed;
    private int indexCount;
    private SlotTable table;
    private boolean headerDirty;

    IndexFile(Segment segment, int slots, int maxEntries) {
        this.segment = Objects.requireNonNull(segment, "segment");
        this.slots = slots;
        this.maxEntries = maxEntries;
        ByteBuf header = segment.read(0, HEADER);
        try {
            int base = header.readerIndex();
            beginTimestamp = header.getLong(base);
            endTimestamp = header.getLong(base + 8);
            beginPhyOffset = header.getLong(base + 16);
            endPhyOffset = header.getLong(base + 24);
            slotsUsed = header.getInt(base + 32);
            indexCount = Math.max(1, header.getInt(base + 36));
        } finally {
            header.release();
        }
    }

    static int capacity(int slots, int maxEntries) {
        long bytes = HEADER + 4L * slots + (long) ENTRY * maxEntries;
        return (int) ((bytes + 4095) / 4096 * 4096);
    }

    static int keyHash(String key) {
        int hash = key.hashCode();
        return hash == Integer.MIN_VALUE ? 0 : Math.abs(hash);
    }

    boolean full() {
        return indexCount >= maxEntries;
    }

    long endPhyOffset() {
        return endPhyOffset;
    }

    long endTimestamp() {
        return endTimestamp;
    }

    boolean empty() {
        return indexCount <= 1;
    }

    Segment segment() {
        return segment;
    }

    /** Adds a key; false when the file is full. */
    boolean put(String key, long commitLogOffset, long storeTimestamp) {
        if (full()) {
            return false;
        }
        if (table == null) {
            table = new SlotTable(segment, HEADER, slots, !empty());
        }
        int hash = keyHash(key);
        int slot = hash % slots;
        int previous = table.get(slot);
        if (previous <= 0 || previous >= indexCount) {
            previous = 0;
            slotsUsed++;
        }
        if (indexCount == 1) {
            beginTimestamp = storeTimestamp;
            beginPhyOffset = commitLogOffset;
        }
        int seconds = (int) Math.max(0, (storeTimestamp - beginTimestamp) / 1000);
        int entryAt = HEADER + 4 * slots + ENTRY * indexCount;
        scratch.clear().writeInt(hash).writeLong(commitLogOffset).writeInt(seconds).writeInt(previous);
        segment.write(entryAt, scratch);
        table.set(slot, indexCount);
        indexCount++;
        endTimestamp = Math.max(endTimestamp, storeTimestamp);
        endPhyOffset = Math.max(endPhyOffset, commitLogOffset);
        headerDirty = true;
        return true;
    }

    /** Writes changed slots, then the header, into the segment (not forced). */
    void writeThrough() {
        if (table != null) {
            table.writeThrough();
        }
        if (headerDirty) {
            scratch.clear().writeLong(beginTimestamp).writeLong(endTimestamp).writeLong(beginPhyOffset)
                    .writeLong(endPhyOffset).writeInt(slotsUsed).writeInt(indexCount);
            segment.write(0, scratch);
            headerDirty = false;
        }
    }

    /** Adds to {@code out} (newest first) the offsets of entries for {@code key} within the time range. */
    void query(String key, int maxNum, long begin, long end, List<Long> out) {
        int hash = keyHash(key);
        int index = table != null ? table.get(hash % slots) : readInt(HEADER + 4 * (hash % slots));
        int guard = 0;
        while (index > 0 && index < indexCount && out.size() < maxNum && guard++ < maxEntries) {
            ByteBuf entry = segment.read(HEADER + 4 * slots + ENTRY * index, ENTRY);
            try {
                int base = entry.readerIndex();
                long time = beginTimestamp + 1000L * entry.getInt(base + 12);
                if (entry.getInt(base) == hash && time >= begin - 999 && time <= end) {
                    long offset = entry.getLong(base + 4);
                    if (!out.contains(offset)) {
                        out.add(offset);
                    }
                }
                int previous = entry.getInt(base + 16);
                index = previous < index ? previous : 0;
            } finally {
                entry.release();
            }
        }
    }

    private int readInt(int position) {
        ByteBuf view = segment.read(position, 4);
        try {
            return view.getInt(view.readerIndex());
        } finally {
            view.release();
        }
    }

    /** Writes through and forces the file; a full file then drops its in-memory slots. */
    void flush() {
        writeThrough();
        segment.flush(segment.capacity());
        if (full()) {
            table = null;
        }
    }

    /** Writes through (not forced) and closes the segment. */
    @Override
    public void close() {
        try {
            writeThrough();
        } finally {
            segment.close();
        }
    }
}
