package org.modmq.testkit.process;

import java.time.Duration;
import java.util.Objects;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * Bounded waiting for a condition that another process (or thread) makes true: polls every
 * {@value #POLL_MILLIS} ms until the deadline, then fails naming what it waited for. Stateless;
 * each call blocks only its calling thread.
 */
public final class Await {

    /** Pause between two polls. */
    public static final long POLL_MILLIS = 25;

    private Await() {
    }

    /**
     * Waits until {@code condition} holds. An exception from the condition counts as "not yet"; the
     * last one is attached to the timeout failure. An {@link AssertionError} from the condition ends
     * the wait at once.
     *
     * @param what      what is awaited, for the failure message ("broker-a to register")
     * @param timeout   how long to wait at most
     * @param condition polled on the calling thread
     * @throws AssertionError naming {@code what} when {@code timeout} passes first, or when interrupted
     *                        (the interrupt flag is then restored)
     */
    public static void until(String what, Duration timeout, BooleanSupplier condition) {
        Objects.requireNonNull(condition, "condition");
        value(what, timeout, () -> condition.getAsBoolean() ? Boolean.TRUE : null);
    }

    /**
     * Waits until {@code probe} returns a non-null value and returns it. An exception from the probe
     * counts as "not yet"; the last one is attached to the timeout failure. An {@link AssertionError}
     * from the probe ends the wait at once.
     *
     * @throws AssertionError naming {@code what} when {@code timeout} passes first, or when interrupted
     *                        (the interrupt flag is then restored)
     */
    public static <T> T value(String what, Duration timeout, Supplier<T> probe) {
        Objects.requireNonNull(what, "what");
        Objects.requireNonNull(timeout, "timeout");
        Objects.requireNonNull(probe, "probe");
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
            pause(what);
        }
    }

    private static void pause(String what) {
        try {
            Thread.sleep(POLL_MILLIS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted while waiting for " + what, e);
        }
    }
}
