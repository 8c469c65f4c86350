package org.modmq.bench;

import java.util.concurrent.locks.LockSupport;

/**
 * Waiting helpers for load generation: a thread that must not send yet parks until a deadline.
 * Used only to pace a generator (fixed send rate, retry spacing), never to wait for a condition.
 */
final class Pacing {

    private Pacing() {
    }

    /**
     * Parks the calling thread for about {@code nanos} nanoseconds.
     *
     * @throws InterruptedException if the thread was interrupted (the flag is cleared, as by any
     *                              method throwing this exception)
     */
    static void pause(long nanos) throws InterruptedException {
        long deadline = System.nanoTime() + nanos;
        long left = nanos;
        while (left > 0) {
            LockSupport.parkNanos(left);
            if (Thread.interrupted()) {
                throw new InterruptedException();
            }
            left = deadline - System.nanoTime();
        }
    }
}
