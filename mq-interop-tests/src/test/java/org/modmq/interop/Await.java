package org.modmq.interop;

import java.time.Duration;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * Bounded waiting for a condition another process makes true: polls every 50 ms until the deadline,
 * then fails naming what it waited for. Used from test threads only.
 */
final class Await {

    private static final long POLL_MILLIS = 50;

    private Await() {
    }

    /**
     * Waits until {@code probe} returns a non-null value and returns it. An exception from the probe
     * counts as "not yet"; the last one is attached to the timeout failure.
     *
     * @throws AssertionError naming {@code what} when {@code timeout} passes first
     */
    static <T> T value(String what, Duration timeout, Supplier<T> probe) {
        Objects.requireNonNull(what, "what");
        long deadline = System.nanoTime() + timeout.toNanos();
        RuntimeException last = null;
        while (true) {
            try {
                T value = probe.get();
                if (value != null) {
                    return value;
                }
            } catch (RuntimeException e) {
                last = e;
            }
            if (System.nanoTime() - deadline >= 0) {
                AssertionError failure = new AssertionError("timed out after " + timeout + " waiting for " + what);
                if (last != null) {
                    failure.initCause(last);
                }
                throw failure;
            }
            try {
                Thread.sleep(POLL_MILLIS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError("interrupted while waiting for " + what, e);
            }
        }
    }
}
