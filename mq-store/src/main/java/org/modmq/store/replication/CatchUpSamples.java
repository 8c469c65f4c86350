package org.modmq.store.replication;

/**
 * When the log ended where: a ring of ⟨time, end offset⟩ samples taken as the log grows (at most one
 * per {@code stepMillis}), so that an acknowledgement of offset A can be dated: the replica had caught
 * up with everything the master had written at the newest sample whose end is at or below A. Older
 * samples fall out of the ring. Thread-safe (synchronized; {@link #record} is cheap when no sample is
 * due).
 */
final class CatchUpSamples {

    private final long stepMillis;
    private final long[] times;
    private final long[] ends;
    private int count;
    private int next;
    private volatile long lastTime = Long.MIN_VALUE;

    CatchUpSamples(int capacity, long stepMillis) {
        this.stepMillis = stepMillis;
        this.times = new long[capacity];
        this.ends = new long[capacity];
    }

    /** The log ended at {@code end} at {@code now}. */
    void record(long now, long end) {
        if (now - lastTime < stepMillis) {
            return;
        }
        synchronized (this) {
            if (now - lastTime < stepMillis) {
                return;
            }
            times[next] = now;
            ends[next] = end;
            next = (next + 1) % times.length;
            count = Math.min(count + 1, times.length);
            lastTime = now;
        }
    }

    /**
     * The newest sample time whose end is at or below {@code acked}, or 0 when no sample is (the
     * acknowledgement is older than the ring).
     */
    synchronized long caughtUpAt(long acked) {
        for (int i = 1; i <= count; i++) {
            int at = Math.floorMod(next - i, times.length);
            if (ends[at] <= acked) {
                return times[at];
            }
        }
        return 0;
    }

    /** Forgets every sample (a new role starts). */
    synchronized void clear() {
        count = 0;
        next = 0;
        lastTime = Long.MIN_VALUE;
    }
}
