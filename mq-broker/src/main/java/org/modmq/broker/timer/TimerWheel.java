package org.modmq.broker.timer;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Objects;

/**
 * The time wheel: {@code slots} fixed slots of {@code precisionMs} each, memory-mapped from one file, so
 * its size does not depend on how many timers are pending. Slot {@code i} holds the round it belongs to
 * and the head of that round's chain in the {@link TimerLog}. Big-endian, 24 bytes per slot:
 *
 * <pre>
 *  0             8             16      20      24
 *  +-------------+-------------+-------+-------+
 *  | SLOT_MS     | LAST_POS    | COUNT | 0     |
 *  +-------------+-------------+-------+-------+
 * </pre>
 *
 * SLOT_MS is the slot start of the round (0: empty, so a new sparse file is an empty wheel), LAST_POS the newest record of that round, COUNT
 * its records. Slot of time {@code t}: {@code (t / precisionMs) mod slots}. The wheel is a cache of the
 * log: the agent rebuilds it from the log whenever it becomes active, so it is never trusted across a
 * crash. Not thread-safe: owned by the timer agent's thread.
 */
final class TimerWheel implements AutoCloseable {

    private static final int SLOT_BYTES = 24;

    /** One slot's content. */
    record Slot(long slotMs, long lastPos, int count) {
    }

    private final Path file;
    private final int slots;
    private final int precisionMs;
    private final FileChannel channel;
    private final MappedByteBuffer map;
    /** Whether every slot is empty (a new file, or cleared and not linked since): clearing is then free. */
    private boolean blank;

    TimerWheel(Path file, int slots, int precisionMs) {
        this.file = Objects.requireNonNull(file, "file");
        this.slots = slots;
        this.precisionMs = precisionMs;
        try {
            Files.createDirectories(file.getParent());
            channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.READ,
                    StandardOpenOption.WRITE);
            long bytes = (long) slots * SLOT_BYTES;
            if (channel.size() != bytes) {
                channel.truncate(0);
                blank = true;
            }
            map = channel.map(FileChannel.MapMode.READ_WRITE, 0, bytes);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot map the timer wheel " + file, e);
        }
    }

    int slots() {
        return slots;
    }

    int precisionMs() {
        return precisionMs;
    }

    /** The span of distinct slots, ms. */
    long windowMs() {
        return (long) slots * precisionMs;
    }

    /** The slot for round {@code slotMs}: empty (SLOT_MS -1) when it holds another round. */
    Slot get(long slotMs) {
        int at = index(slotMs);
        long stored = map.getLong(at);
        if (stored != slotMs || slotMs == 0) {
            return new Slot(-1, -1, 0);
        }
        return new Slot(stored, map.getLong(at + 8), map.getInt(at + 16));
    }

    /** Makes {@code position} the newest record of round {@code slotMs}. */
    void link(long slotMs, long position) {
        int at = index(slotMs);
        int count = map.getLong(at) == slotMs ? map.getInt(at + 16) : 0;
        map.putLong(at, slotMs);
        map.putLong(at + 8, position);
        map.putInt(at + 16, count + 1);
        blank = false;
    }

    /** Empties every slot. */
    void clear() {
        if (blank) {
            return;
        }
        for (int at = 0; at < slots * SLOT_BYTES; at += Long.BYTES) {
            map.putLong(at, 0L);
        }
        blank = true;
    }

    private int index(long slotMs) {
        return (int) Math.floorMod(slotMs / precisionMs, (long) slots) * SLOT_BYTES;
    }

    @Override
    public void close() {
        try {
            channel.close();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot close the timer wheel " + file, e);
        }
    }
}
