package org.modmq.ha.push.sync;

import java.util.List;
import org.modmq.api.spi.replication.EpochEntry;

/**
 * The epoch a byte range belongs to, by an epoch history: bytes in {@code [start, end)} were written by the
 * master of {@code epoch}; bytes before the first entry belong to no epoch (0). Immutable.
 *
 * @param epoch the epoch (0: none)
 * @param start where it starts (0 for no epoch)
 * @param end where the next epoch starts, {@link Long#MAX_VALUE} for the last
 */
public record EpochSpan(int epoch, long start, long end) {

    /** The span holding {@code offset} in {@code history} (oldest first). */
    public static EpochSpan at(List<EpochEntry> history, long offset) {
        for (int i = history.size() - 1; i >= 0; i--) {
            EpochEntry entry = history.get(i);
            if (entry.startOffset() <= offset) {
                long end = i + 1 < history.size() ? history.get(i + 1).startOffset() : Long.MAX_VALUE;
                return new EpochSpan(entry.epoch(), entry.startOffset(), end);
            }
        }
        return new EpochSpan(0, 0, history.isEmpty() ? Long.MAX_VALUE : history.get(0).startOffset());
    }
}
