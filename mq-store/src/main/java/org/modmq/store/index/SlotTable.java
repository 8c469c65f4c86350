package org.modmq.store.index;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.util.BitSet;
import java.util.Objects;
import org.modmq.api.spi.storage.Segment;

/**
 * The hash-slot region of the index file being written, held in memory: lookups and updates never
 * touch the segment (on the direct backend every slot access was a block read). Changed 4 KiB pages
 * of the region are written back by {@link #writeThrough()}, which the owning {@link IndexFile} calls
 * before it writes its header, so that the file never holds a header newer than its slots.
 *
 * <p>Not thread-safe: {@link IndexStore} serializes access.
 */
final class SlotTable {

    private static final int SLOTS_PER_PAGE = 1024;

    private final Segment segment;
    private final int offset;
    private final int[] slots;
    private final BitSet dirtyPages;

    /**
     * @param segment the index file's segment (not owned)
     * @param offset byte position of slot 0 in the segment
     * @param count number of slots
     * @param load whether the slots must be read from the segment (false for a file with no entry yet)
     */
    SlotTable(Segment segment, int offset, int count, boolean load) {
        this.segment = Objects.requireNonNull(segment, "segment");
        this.offset = offset;
        this.slots = new int[count];
        this.dirtyPages = new BitSet((count + SLOTS_PER_PAGE - 1) / SLOTS_PER_PAGE);
        if (load) {
            load();
        }
    }

    private void load() {
        for (int first = 0; first < slots.length; first += SLOTS_PER_PAGE * 64) {
            int n = Math.min(SLOTS_PER_PAGE * 64, slots.length - first);
            ByteBuf view = segment.read(offset + 4 * first, 4 * n);
            try {
                int base = view.readerIndex();
                for (int i = 0; i < n; i++) {
                    slots[first + i] = view.getInt(base + 4 * i);
                }
            } finally {
                view.release();
            }
        }
    }

    int get(int slot) {
        return slots[slot];
    }

    void set(int slot, int entry) {
        slots[slot] = entry;
        dirtyPages.set(slot / SLOTS_PER_PAGE);
    }

    /** Writes the pages changed since the last call into the segment (not forced). */
    void writeThrough() {
        if (dirtyPages.isEmpty()) {
            return;
        }
        ByteBuf page = Unpooled.buffer(4 * SLOTS_PER_PAGE, 4 * SLOTS_PER_PAGE);
        try {
            for (int p = dirtyPages.nextSetBit(0); p >= 0; p = dirtyPages.nextSetBit(p + 1)) {
                int first = p * SLOTS_PER_PAGE;
                int n = Math.min(SLOTS_PER_PAGE, slots.length - first);
                page.clear();
                for (int i = 0; i < n; i++) {
                    page.writeInt(slots[first + i]);
                }
                segment.write(offset + 4 * first, page);
            }
        } finally {
            page.release();
        }
        dirtyPages.clear();
    }
}
