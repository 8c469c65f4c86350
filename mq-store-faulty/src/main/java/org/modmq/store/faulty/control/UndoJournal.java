package org.modmq.store.faulty.control;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The bytes each unforced write of one segment overwrote, oldest first: applying them newest first
 * puts the file back as it was at the last successful force of every range. A force up to {@code upTo}
 * drops (or cuts) the entries below it that were recorded before the force began.
 *
 * <p>Thread-safe (monitor); the segment also takes this monitor around each write, so that a force's
 * {@link #mark()} orders it after every write that completed before.
 */
final class UndoJournal {

    /** What a write at {@code position} overwrote. */
    record Entry(long sequence, int position, byte[] before) {
    }

    private List<Entry> entries = new ArrayList<>();
    private long nextSequence;

    /** The sequence the next entry gets: a force covers only entries below it. */
    synchronized long mark() {
        return nextSequence;
    }

    synchronized void record(int position, byte[] before) {
        if (before.length > 0) {
            entries.add(new Entry(nextSequence++, position, before));
        }
    }

    /** Every byte below {@code upTo} written by an entry before {@code mark} is durable now. */
    synchronized void forced(int upTo, long mark) {
        List<Entry> kept = new ArrayList<>(entries.size());
        for (Entry entry : entries) {
            int end = entry.position() + entry.before().length;
            if (entry.sequence() >= mark || entry.position() >= upTo) {
                kept.add(entry);
            } else if (end > upTo) {
                kept.add(new Entry(entry.sequence(), upTo,
                        Arrays.copyOfRange(entry.before(), upTo - entry.position(), entry.before().length)));
            }
        }
        entries = kept;
    }

    /** The entries, newest first, and an empty journal. */
    synchronized List<Entry> drainNewestFirst() {
        List<Entry> drained = new ArrayList<>(entries);
        java.util.Collections.reverse(drained);
        entries = new ArrayList<>();
        return drained;
    }

    synchronized boolean isEmpty() {
        return entries.isEmpty();
    }

    /** Bytes the journal holds (how much a power loss would take back). */
    synchronized long unforcedBytes() {
        long bytes = 0;
        for (Entry entry : entries) {
            bytes += entry.before().length;
        }
        return bytes;
    }
}
