package org.modmq.broker.stats;

import java.util.concurrent.atomic.LongAdder;

/**
 * A monotonically growing count with a ring of periodic samples, from which rates over trailing
 * windows are computed (the figure between the newest sample and the newest one at least a window
 * older, or the oldest one kept when the history is shorter). Adding is lock-free; sampling and
 * rate reads synchronise on the ring. Thread-safe.
 */
final class RateCounter {

    private final LongAdder total = new LongAdder();
    private final long[] sampleMillis;
    private final long[] sampleTotals;
    private int newest = -1;
    private int size;

    /** @param capacity number of samples kept (a window longer than capacity × period is cut short) */
    RateCounter(int capacity) {
        if (capacity < 2) {
            throw new IllegalArgumentException("capacity must be at least 2: " + capacity);
        }
        sampleMillis = new long[capacity];
        sampleTotals = new long[capacity];
    }

    void add(long amount) {
        total.add(amount);
    }

    long total() {
        return total.sum();
    }

    /** Records the current total as of {@code nowMillis}. */
    synchronized void sample(long nowMillis) {
        newest = (newest + 1) % sampleMillis.length;
        sampleMillis[newest] = nowMillis;
        sampleTotals[newest] = total.sum();
        size = Math.min(size + 1, sampleMillis.length);
    }

    /** Per-second rate over the trailing {@code windowMillis}; 0 before two samples exist. */
    synchronized double perSecond(long windowMillis) {
        if (size < 2) {
            return 0;
        }
        long latestTime = sampleMillis[newest];
        int chosen = newest;
        for (int back = 1; back < size; back++) {
            int index = Math.floorMod(newest - back, sampleMillis.length);
            chosen = index;
            if (latestTime - sampleMillis[index] >= windowMillis) {
                break;
            }
        }
        long elapsed = latestTime - sampleMillis[chosen];
        return elapsed <= 0 ? 0 : (sampleTotals[newest] - sampleTotals[chosen]) * 1000.0 / elapsed;
    }
}
