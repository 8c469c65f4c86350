package org.modmq.broker.timer;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The on-disk index of pending timers: the {@link TimerLog} (the truth) and the {@link TimerWheel} (slot
 * heads, rebuilt from the log by {@link #rebuild}). A timer for slot {@code s} is linked into slot
 * {@code s} when {@code s} is within the wheel's window from the read time, else into the window's last
 * slot, from which it rolls on when that slot is read (in the log only; the CommitLog is not touched).
 * Memory use is the mapped wheel plus one long per log segment, whatever the number of timers.
 *
 * <p>Not thread-safe: owned by the timer agent's thread. {@link #close()} is idempotent.
 */
final class TimerIndex implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(TimerIndex.class);

    private final Path dir;
    private final int slots;
    private final int precisionMs;
    private final int segmentRecords;
    private final TimerWheel wheel;
    private TimerLog log;
    /** Per log segment (by base position): the latest slot any of its records is linked into. */
    private final TreeMap<Long, Long> segmentMaxSlot = new TreeMap<>();
    private boolean closed;

    TimerIndex(Path dir, int slots, int precisionMs, int segmentRecords) {
        this.dir = Objects.requireNonNull(dir, "dir");
        this.slots = slots;
        this.precisionMs = precisionMs;
        this.segmentRecords = segmentRecords;
        restoreInterruptedMigration();
        this.log = new TimerLog(dir.resolve("log"), segmentRecords);
        this.wheel = new TimerWheel(dir.resolve("wheel"), slots, precisionMs);
    }

    int precisionMs() {
        return precisionMs;
    }

    int slots() {
        return slots;
    }

    long logEnd() {
        return log.end();
    }

    /** The start of the slot holding {@code timeMs}. */
    long slotOf(long timeMs) {
        return Math.floorDiv(timeMs, precisionMs) * precisionMs;
    }

    /**
     * Drops the log past {@code logEnd} and rebuilds the wheel from the records whose slot is at or after
     * {@code readMs}. When the log was built with another geometry, its pending records are first copied
     * into a new log with this one.
     *
     * @return the number of pending records linked
     */
    long rebuild(long readMs, long logEnd, int logPrecisionMs, int logSlots) {
        log.truncate(logEnd);
        if (logPrecisionMs != precisionMs || logSlots != slots) {
            migrate(readMs, logPrecisionMs, logSlots);
        }
        wheel.clear();
        segmentMaxSlot.clear();
        long[] linked = {0};
        log.scan(log.start(), log.end(), (record, position) -> {
            noteSegment(position, record.slotMs());
            if (record.slotMs() >= readMs) {
                wheel.link(record.slotMs(), position);
                linked[0]++;
            }
        });
        return linked[0];
    }

    /**
     * Links a timer due at slot {@code deliverMs} (not before {@code readMs}) into the wheel.
     *
     * @return the slot it was linked into
     */
    long add(long deliverMs, long commitLogOffset, int size, long readMs) {
        long horizon = readMs + (long) (slots - 1) * precisionMs;
        long slot = Math.max(readMs, Math.min(slotOf(deliverMs), horizon));
        TimerWheel.Slot head = wheel.get(slot);
        long position = log.append(new TimerRecord(head.lastPos(), slot, deliverMs, commitLogOffset, size));
        wheel.link(slot, position);
        noteSegment(position, slot);
        return slot;
    }

    /** The newest record position of round {@code slotMs}, -1 when the slot is empty. */
    long head(long slotMs) {
        return wheel.get(slotMs).lastPos();
    }

    /** The record at {@code position}, null when it is not a valid record. */
    TimerRecord read(long position) {
        return log.read(position);
    }

    /** Forces the log (the wheel is rebuilt from it, never trusted); returns the forced log end. */
    long force() {
        log.force();
        return log.end();
    }

    /** Deletes the leading log segments whose records all belong to slots before {@code readMs}. */
    void deleteDelivered(long readMs) {
        long upTo = -1;
        for (long[] range : log.segmentRanges()) {
            Long max = segmentMaxSlot.get(range[0]);
            if (range[1] >= log.end() || (max != null && max >= readMs)) {
                break;
            }
            upTo = range[1];
        }
        if (upTo > 0) {
            for (long base : log.deleteBefore(upTo)) {
                segmentMaxSlot.remove(base);
                LOG.debug("timer log segment {} deleted: every timer in it was delivered", base);
            }
        }
    }

    private void noteSegment(long position, long slotMs) {
        long base = position / ((long) segmentRecords * TimerRecord.SIZE) * ((long) segmentRecords * TimerRecord.SIZE);
        segmentMaxSlot.merge(base, slotMs, Math::max);
    }

    /** Copies the pending records into a fresh log laid out for this geometry; the old log goes once done. */
    private void migrate(long readMs, int oldPrecisionMs, int oldSlots) {
        Path current = dir.resolve("log");
        Path old = dir.resolve("log.old");
        log.close();
        try {
            Files.move(current, old);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot move the timer log aside for a new geometry: " + current, e);
        }
        long[] copied = {0};
        try (TimerLog source = new TimerLog(old, segmentRecords)) {
            log = new TimerLog(current, segmentRecords);
            long readSlot = slotOf(readMs);
            source.scan(source.start(), source.end(), (record, position) -> {
                if (record.slotMs() >= readMs) {
                    add(record.deliverMs(), record.commitLogOffset(), record.size(), readSlot);
                    copied[0]++;
                }
            });
            log.force();
        }
        deleteTree(old);
        LOG.info("timer log rebuilt for timerPrecisionMs {} and {} slots (was {} ms, {} slots): {} pending timers",
                precisionMs, slots, oldPrecisionMs, oldSlots, copied[0]);
    }

    /** A migration cut short by a crash: the old log is still whole, the new one is dropped. */
    private void restoreInterruptedMigration() {
        Path old = dir.resolve("log.old");
        if (!Files.isDirectory(old)) {
            return;
        }
        Path current = dir.resolve("log");
        deleteTree(current);
        try {
            Files.move(old, current);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot restore the timer log " + old, e);
        }
    }

    private static void deleteTree(Path root) {
        if (!Files.exists(root)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(root)) {
            for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(path);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot delete " + root, e);
        }
    }

    /** Per-segment latest slots, for tests. */
    Map<Long, Long> segmentMaxSlots() {
        return Map.copyOf(segmentMaxSlot);
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        try {
            log.close();
        } finally {
            wheel.close();
        }
    }
}
