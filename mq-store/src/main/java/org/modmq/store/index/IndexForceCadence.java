package org.modmq.store.index;

import java.time.Clock;
import java.util.Objects;

/**
 * How often the index is written through and forced: every {@code flushIntervalIndex} ms, not at every
 * ConsumeQueue force. With keys spread over the 5 million slots, nearly every 4 KiB page of the 20 MB
 * slot region changes within a second, so forcing the index each second wrote (and write-protected
 * again) most of that region every second: about 10 % of a replica's CPU. The price is a longer
 * re-dispatch after a crash, because the checkpoint may only name an offset the forced index covers:
 * {@link #flushIfDue} returns that offset.
 *
 * <p>Not thread-safe: the store's logics flush, which is serialized, is its only caller.
 */
public final class IndexForceCadence {

    private final Clock clock;
    private final long intervalMillis;
    private boolean forcedOnce;
    private long lastForcedAt;
    private long forcedThrough = -1;

    /** @param intervalMillis at least this long between two forces of the index (the first call forces) */
    public IndexForceCadence(Clock clock, long intervalMillis) {
        this.clock = Objects.requireNonNull(clock, "clock");
        if (intervalMillis < 0) {
            throw new IllegalArgumentException("intervalMillis must be >= 0: " + intervalMillis);
        }
        this.intervalMillis = intervalMillis;
    }

    /**
     * Forces {@code index} when the interval has passed since the last force.
     *
     * @param dispatched the dispatch position read before this call: every record below it is in the index
     * @return the offset below which the forced index holds every record, never above {@code dispatched}
     */
    public long flushIfDue(IndexStore index, long dispatched) {
        long now = clock.millis();
        if (!forcedOnce || now - lastForcedAt >= intervalMillis) {
            index.flush();
            forcedOnce = true;
            lastForcedAt = now;
            forcedThrough = dispatched;
        }
        return Math.min(forcedThrough, dispatched);
    }

    /** The store was cut back to {@code end}: what the forced index covered beyond it is gone. */
    public void cappedAt(long end) {
        forcedThrough = Math.min(forcedThrough, end);
    }
}
