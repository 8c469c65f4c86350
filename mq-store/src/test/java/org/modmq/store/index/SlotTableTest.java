package org.modmq.store.index;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.modmq.api.spi.storage.Segment;
import org.modmq.store.FileChannelTestBackend;

class SlotTableTest {

    private static final int HEADER = 40;
    private static final int SLOTS = 5000;

    @TempDir
    Path dir;

    private final FileChannelTestBackend backend = new FileChannelTestBackend();

    @Test
    void readsOnlyThePagesItsSlotsAreUsedFrom() {
        try (Segment segment = backend.open(dir.resolve("index"), HEADER + 4 * SLOTS)) {
            writeThrough(segment, false, 3, 30, 4999, 49990);

            SlotTable reopened = new SlotTable(segment, HEADER, SLOTS, true);

            assertThat(reopened.pagesHeld()).isZero();
            assertThat(reopened.get(3)).isEqualTo(30);
            assertThat(reopened.get(4)).isZero();
            assertThat(reopened.pagesHeld()).isEqualTo(1);
            assertThat(reopened.get(4999)).isEqualTo(49990);
            assertThat(reopened.pagesHeld()).isEqualTo(2);
        }
    }

    @Test
    void readsAllTheRestOnceManyPagesWereReadOneByOne() {
        int slots = (SlotTable.LAZY_PAGES + 10) * 1024;
        try (Segment segment = backend.open(dir.resolve("index"), HEADER + 4 * slots)) {
            SlotTable fresh = new SlotTable(segment, HEADER, slots, false);
            for (int slot = 0; slot < slots; slot += 1024) {
                fresh.set(slot + 5, slot + 1);
            }
            fresh.writeThrough();

            SlotTable reopened = new SlotTable(segment, HEADER, slots, true);
            for (int page = 0; page < SlotTable.LAZY_PAGES; page++) {
                assertThat(reopened.get(page * 1024 + 5)).isEqualTo(page * 1024 + 1);
            }
            assertThat(reopened.pagesHeld()).isEqualTo(SlotTable.LAZY_PAGES);
            assertThat(reopened.get((SlotTable.LAZY_PAGES + 3) * 1024 + 5))
                    .isEqualTo((SlotTable.LAZY_PAGES + 3) * 1024 + 1);

            assertThat(reopened.pagesHeld()).isEqualTo(SlotTable.LAZY_PAGES + 10);
            for (int slot = 0; slot < slots; slot += 1024) {
                assertThat(reopened.get(slot + 5)).isEqualTo(slot + 1);
                assertThat(reopened.get(slot + 6)).isZero();
            }
        }
    }

    @Test
    void writesBackChangedPagesOnlyWithTheSlotsItRead() {
        try (Segment segment = backend.open(dir.resolve("index"), HEADER + 4 * SLOTS)) {
            writeThrough(segment, false, 1025, 7, 1026, 8);
            writeThrough(segment, true, 1026, 9, 2048, 10);

            SlotTable third = new SlotTable(segment, HEADER, SLOTS, true);
            assertThat(third.get(1025)).isEqualTo(7);
            assertThat(third.get(1026)).isEqualTo(9);
            assertThat(third.get(2048)).isEqualTo(10);
            assertThat(third.get(0)).isZero();
        }
    }

    /** A table of {@link #SLOTS} over {@code segment} that sets each (slot, entry) pair and writes through. */
    private static void writeThrough(Segment segment, boolean stored, int... slotsAndEntries) {
        SlotTable table = new SlotTable(segment, HEADER, SLOTS, stored);
        for (int i = 0; i < slotsAndEntries.length; i += 2) {
            table.set(slotsAndEntries[i], slotsAndEntries[i + 1]);
        }
        table.writeThrough();
    }
}
