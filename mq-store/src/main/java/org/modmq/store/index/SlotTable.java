package org.modmq.store.index;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.nio.ByteOrder;
import java.nio.IntBuffer;
import java.util.BitSet;
import java.util.Objects;
import org.modmq.api.spi.storage.Segment;

/**
 * The hash-slot region of the index file being written, held in memory: lookups and updates never
 * touch the segment (on the direct backend every slot access was a block read). The region is held in
 * 4 KiB pages. The first {@value #LAZY_PAGES} are read one by one as their slots are first used, and
 * then all the others in one sequential pass: a restart that re-dispatches a few records reads a few
 * pages rather than the whole region (20 MB at the default 5 million slots, tens of ms on the direct
 * backend, which has no page cache), and one that re-dispatches many does not pay a random read per
 * page. Changed pages are written back by
 * {@link #writeThrough()}, which the owning {@link IndexFile} calls before it writes its header, so that
 * the file never holds a header newer than its slots.
 *
 * <p>Not thread-safe: {@link IndexStore} serializes access.
 */
final class SlotTable {

    private static final int SLOTS_PER_PAGE = 1024;
    /** Pages read one by one before the rest is read in one pass. */
    static final int LAZY_PAGES = 64;
    private static final int PAGES_PER_READ = 256;
    private static final int BRIDGED_PAGES = 16;

    private final Segment segment;
    private final int offset;
    private final int count;
    private final boolean stored;
    private final int[][] pages;
    private final BitSet dirtyPages;
    private int pagesRead;

    /**
     * @param segment the index file's segment (not owned)
     * @param offset byte position of slot 0 in the segment
     * @param count number of slots
     * @param stored whether the slots must be read from the segment (false for a file with no entry yet,
     *     whose slots are all 0)
     */
    SlotTable(Segment segment, int offset, int count, boolean stored) {
        this.segment = Objects.requireNonNull(segment, "segment");
        this.offset = offset;
        this.count = count;
        this.stored = stored;
        int pageCount = (count + SLOTS_PER_PAGE - 1) / SLOTS_PER_PAGE;
        this.pages = new int[pageCount][];
        this.dirtyPages = new BitSet(pageCount);
    }

    int get(int slot) {
        return page(slot / SLOTS_PER_PAGE)[slot % SLOTS_PER_PAGE];
    }

    void set(int slot, int entry) {
        int p = slot / SLOTS_PER_PAGE;
        page(p)[slot % SLOTS_PER_PAGE] = entry;
        dirtyPages.set(p);
    }

    /** Pages read or created so far (for tests). */
    int pagesHeld() {
        int held = 0;
        for (int[] page : pages) {
            held += page == null ? 0 : 1;
        }
        return held;
    }

    private int[] page(int p) {
        int[] page = pages[p];
        if (page != null) {
            return page;
        }
        if (!stored) {
            page = new int[pageLength(p)];
            pages[p] = page;
            return page;
        }
        if (++pagesRead > LAZY_PAGES) {
            // Many random page reads cost more than one sequential pass over the rest.
            readRun(0, pages.length);
            return pages[p];
        }
        readRun(p, p + 1);
        return pages[p];
    }

    /** Reads every page of {@code [from, to)} not held yet, up to {@link #PAGES_PER_READ} per read. */
    private void readRun(int from, int to) {
        int p = from;
        while (p < to) {
            if (pages[p] != null) {
                p++;
                continue;
            }
            int end = p;
            while (end < to && end - p < PAGES_PER_READ && pages[end] == null) {
                end++;
            }
            int firstSlot = p * SLOTS_PER_PAGE;
            int slotCount = Math.min(count, end * SLOTS_PER_PAGE) - firstSlot;
            ByteBuf view = segment.read(offset + 4 * firstSlot, 4 * slotCount);
            try {
                IntBuffer ints = view.nioBuffer(view.readerIndex(), 4 * slotCount).order(ByteOrder.BIG_ENDIAN)
                        .asIntBuffer();
                for (int q = p; q < end; q++) {
                    int[] page = new int[pageLength(q)];
                    ints.get(page);
                    pages[q] = page;
                }
            } finally {
                view.release();
            }
            p = end;
        }
    }

    private int pageLength(int p) {
        return Math.min(SLOTS_PER_PAGE, count - p * SLOTS_PER_PAGE);
    }

    /**
     * Writes the pages changed since the last call into the segment (not forced). Changed pages with at
     * most {@value #BRIDGED_PAGES} held pages between them go out as one write, the held ones included:
     * rewriting a few unchanged pages from memory is cheaper than a backend reading them to merge.
     */
    void writeThrough() {
        if (dirtyPages.isEmpty()) {
            return;
        }
        int runStart = -1;
        int runEnd = -1;
        for (int p = dirtyPages.nextSetBit(0); p >= 0; p = dirtyPages.nextSetBit(p + 1)) {
            if (runStart >= 0 && p - runEnd <= BRIDGED_PAGES && held(runEnd, p)) {
                runEnd = p + 1;
                continue;
            }
            if (runStart >= 0) {
                writeRun(runStart, runEnd);
            }
            runStart = p;
            runEnd = p + 1;
        }
        writeRun(runStart, runEnd);
        dirtyPages.clear();
    }

    private boolean held(int from, int to) {
        for (int q = from; q < to; q++) {
            if (pages[q] == null) {
                return false;
            }
        }
        return true;
    }

    private void writeRun(int from, int to) {
        int firstSlot = from * SLOTS_PER_PAGE;
        int slotCount = Math.min(count, to * SLOTS_PER_PAGE) - firstSlot;
        ByteBuf buffer = Unpooled.buffer(4 * slotCount, 4 * slotCount);
        try {
            for (int q = from; q < to; q++) {
                for (int slot : pages[q]) {
                    buffer.writeInt(slot);
                }
            }
            segment.write(offset + 4 * firstSlot, buffer);
        } finally {
            buffer.release();
        }
    }
}
