package org.modmq.ha.push.sync;

import java.util.List;
import org.modmq.api.spi.replication.EpochEntry;

/**
 * Where two logs with epoch histories stop being the same, as RocketMQ's
 * {@code EpochFileCache#findConsistentPoint} decides it: walking the local history from its newest
 * entry, the first epoch the other history also has with the same start offset is the newest epoch both
 * logs hold; they agree up to the smaller of the two ends of that epoch (an entry ends where the next one
 * starts, the last one at its log's end). Stateless.
 */
public final class ConsistentPoint {

    /** No epoch in common. */
    public static final long NONE = -1;

    private ConsistentPoint() {
    }

    /**
     * The consistent point of a local log ({@code local} history, oldest first, log ending at
     * {@code localEnd}) against another ({@code other}, {@code otherEnd}), or {@link #NONE}. Never above
     * either end.
     */
    public static long find(List<EpochEntry> local, long localEnd, List<EpochEntry> other, long otherEnd) {
        for (int i = local.size() - 1; i >= 0; i--) {
            EpochEntry mine = local.get(i);
            int j = indexOf(other, mine.epoch());
            if (j >= 0 && other.get(j).startOffset() == mine.startOffset()) {
                long point = Math.min(end(local, i, localEnd), end(other, j, otherEnd));
                return Math.min(point, Math.min(localEnd, otherEnd));
            }
        }
        return NONE;
    }

    /** Where entry {@code i} ends: the next entry's start, or for the last one the log's end. */
    private static long end(List<EpochEntry> history, int i, long logEnd) {
        if (i + 1 < history.size()) {
            return history.get(i + 1).startOffset();
        }
        // RocketMQ leaves the last entry open-ended when its start lies beyond the log's end.
        return history.get(i).startOffset() <= logEnd ? logEnd : Long.MAX_VALUE;
    }

    private static int indexOf(List<EpochEntry> history, int epoch) {
        for (int j = history.size() - 1; j >= 0; j--) {
            if (history.get(j).epoch() == epoch) {
                return j;
            }
        }
        return -1;
    }

    /** The newest epoch of {@code history}, 0 when empty. */
    public static int lastEpoch(List<EpochEntry> history) {
        return history.isEmpty() ? 0 : history.get(history.size() - 1).epoch();
    }
}
