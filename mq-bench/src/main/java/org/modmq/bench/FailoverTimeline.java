package org.modmq.bench;

import java.util.Objects;

/**
 * When the steps of one failover run happened, as {@link System#nanoTime()} values.
 *
 * @param fault          {@code kill}, {@code stop} or {@code none}
 * @param oldMaster      the master's address right before the fault (or at the end of the warm-up)
 * @param pid            the process the fault went to, -1 without a fault
 * @param loadStartNanos the load threads started (after the set was healthy)
 * @param faultNanos     right before the fault signal (without a fault: the end of the warm-up)
 * @param contNanos      right before SIGCONT, or {@code null} when none was sent
 * @param loadEndNanos   the measured window ended and the load stopped
 * @param watchEndNanos  the waits after the load (old master rejoining) ended
 */
record FailoverTimeline(String fault, String oldMaster, long pid, long loadStartNanos, long faultNanos, Long contNanos,
                        long loadEndNanos, long watchEndNanos) {

    FailoverTimeline {
        Objects.requireNonNull(fault, "fault");
    }

    /** Whether a fault was injected. */
    boolean faulted() {
        return !"none".equals(fault);
    }

    /** Milliseconds from the fault to {@code nanos}. */
    double sinceFaultMillis(long nanos) {
        return (nanos - faultNanos) / 1e6;
    }
}
