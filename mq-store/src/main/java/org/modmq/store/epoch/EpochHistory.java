package org.modmq.store.epoch;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.modmq.api.spi.replication.EpochEntry;

/**
 * The store's epoch history: ⟨epoch, start offset⟩ entries, oldest first, strictly increasing in both,
 * kept in memory and in an {@link EpochFile}; every change is written through before it returns.
 * Thread-safe (synchronized).
 */
public final class EpochHistory {

    private final EpochFile file;
    private List<EpochEntry> entries;

    /** Loads the history from {@code file}. */
    public EpochHistory(EpochFile file) {
        this.file = Objects.requireNonNull(file, "file");
        this.entries = new ArrayList<>(file.read());
    }

    /** The entries, oldest first (a copy). */
    public synchronized List<EpochEntry> entries() {
        return List.copyOf(entries);
    }

    /** The newest epoch, 0 when there is none. */
    public synchronized int lastEpoch() {
        return entries.isEmpty() ? 0 : entries.get(entries.size() - 1).epoch();
    }

    /** The newest entry, or null. */
    public synchronized EpochEntry last() {
        return entries.isEmpty() ? null : entries.get(entries.size() - 1);
    }

    /**
     * Appends {@code entry}; repeating the last entry changes nothing.
     *
     * @throws IllegalArgumentException when the epoch is not above the last one or the start lies below
     *     the last entry's start
     */
    public synchronized void append(EpochEntry entry) {
        Objects.requireNonNull(entry, "entry");
        EpochEntry last = last();
        if (entry.equals(last)) {
            return;
        }
        if (last != null && (entry.epoch() <= last.epoch() || entry.startOffset() < last.startOffset())) {
            throw new IllegalArgumentException("epoch entry " + entry + " does not follow the last one " + last);
        }
        List<EpochEntry> next = new ArrayList<>(entries);
        next.add(entry);
        file.write(next);
        entries = next;
    }

    /** Drops the entries that start at or above {@code offset}; returns whether any was dropped. */
    public synchronized boolean truncateFrom(long offset) {
        List<EpochEntry> next = new ArrayList<>(entries);
        next.removeIf(entry -> entry.startOffset() >= offset);
        return replace(next);
    }

    /** Drops the entries that start above {@code offset} (recovery: the log ends at {@code offset}). */
    public synchronized boolean truncateAbove(long offset) {
        List<EpochEntry> next = new ArrayList<>(entries);
        next.removeIf(entry -> entry.startOffset() > offset);
        return replace(next);
    }

    /**
     * Drops entries wholly below {@code minOffset} (retention deleted their bytes); the entry that covers
     * {@code minOffset} stays.
     */
    public synchronized boolean truncateBelow(long minOffset) {
        List<EpochEntry> next = new ArrayList<>(entries);
        while (next.size() > 1 && next.get(1).startOffset() <= minOffset) {
            next.remove(0);
        }
        return replace(next);
    }

    private boolean replace(List<EpochEntry> next) {
        if (next.size() == entries.size()) {
            return false;
        }
        file.write(next);
        entries = next;
        return true;
    }
}
