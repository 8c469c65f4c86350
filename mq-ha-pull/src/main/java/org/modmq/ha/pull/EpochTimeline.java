package org.modmq.ha.pull;

import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.modmq.api.spi.replication.EpochEntry;

/**
 * An epoch history with each entry's end: an entry ends where the next one starts, the last one at the
 * log's end (RocketMQ's {@code EpochFileCache} with {@code setLastEpochEntryEndOffset}). Immutable.
 *
 * @param entries oldest first, epochs increasing, starts non-decreasing
 * @param lastEnd where the last entry ends: the log's max offset, or {@link Long#MAX_VALUE} for a master
 *     serving a log that still grows
 */
record EpochTimeline(List<EpochEntry> entries, long lastEnd) {

    /** Where two histories agree up to: {@code offset}, reached through {@code localIndex}. */
    record ConsistentPoint(long offset, int localIndex) {
    }

    EpochTimeline {
        entries = List.copyOf(Objects.requireNonNull(entries, "entries"));
    }

    boolean isEmpty() {
        return entries.isEmpty();
    }

    int size() {
        return entries.size();
    }

    EpochEntry get(int index) {
        return entries.get(index);
    }

    /** The last entry's epoch, -1 when there is none (RocketMQ's {@code lastEpoch()}). */
    int lastEpoch() {
        return entries.isEmpty() ? -1 : entries.get(entries.size() - 1).epoch();
    }

    /**
     * Where entry {@code index} ends: the next entry's start, or {@link #lastEnd} for the last entry
     * ({@link Long#MAX_VALUE} if the log ended below its start, as RocketMQ then leaves the end unset).
     */
    long endOf(int index) {
        if (index < entries.size() - 1) {
            return entries.get(index + 1).startOffset();
        }
        return entries.get(index).startOffset() <= lastEnd ? lastEnd : Long.MAX_VALUE;
    }

    /**
     * The entry whose bytes hold {@code offset} in a log that goes on growing: the newest one starting at
     * or below it (an epoch that holds no bytes starts where the next one does and is passed over); -1 when
     * {@code offset} lies below the first entry.
     */
    int covering(long offset) {
        for (int i = entries.size() - 1; i >= 0; i--) {
            if (entries.get(i).startOffset() <= offset) {
                return i;
            }
        }
        return -1;
    }

    /** The index of {@code epoch}'s entry, -1 when absent. */
    int indexOf(int epoch) {
        for (int i = entries.size() - 1; i >= 0; i--) {
            if (entries.get(i).epoch() == epoch) {
                return i;
            }
        }
        return -1;
    }

    /**
     * RocketMQ's {@code findConsistentPoint}, this timeline being the replica's: the newest local entry
     * whose epoch the other timeline holds with the same start decides, and the histories agree up to
     * the smaller of the two ends of that epoch. Empty when no epoch matches.
     */
    Optional<ConsistentPoint> consistentPointWith(EpochTimeline master) {
        for (int i = entries.size() - 1; i >= 0; i--) {
            EpochEntry local = entries.get(i);
            int theirs = master.indexOf(local.epoch());
            if (theirs >= 0 && master.get(theirs).startOffset() == local.startOffset()) {
                return Optional.of(new ConsistentPoint(Math.min(endOf(i), master.endOf(theirs)), i));
            }
        }
        return Optional.empty();
    }
}
