package org.modmq.compat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.TimeUnit;

/**
 * Stock client shutdowns running in the background: {@link #start} begins one at once on its own
 * daemon thread, {@link #close()} waits (bounded) for every one started so far. A stock client's
 * {@code shutdown()} blocks for up to 3 s (its remoting client joins an event thread that polls with
 * a 3 s timeout), so tests hand finished clients here instead of waiting for each. Thread-safe;
 * {@code close()} may be called more than once.
 */
final class ClientShutdowns implements AutoCloseable {

    private static final Duration TIMEOUT = Duration.ofSeconds(30);

    private final List<Thread> threads = new ArrayList<>();

    /** Starts {@code shutdown} now on its own thread. */
    synchronized void start(Runnable shutdown) {
        Objects.requireNonNull(shutdown, "shutdown");
        Thread thread = new Thread(shutdown, "compat-client-shutdown");
        thread.setDaemon(true);
        thread.start();
        threads.add(thread);
    }

    /** Waits until every shutdown started so far has finished, at most 30 s in all. */
    @Override
    public void close() {
        List<Thread> started;
        synchronized (this) {
            started = List.copyOf(threads);
            threads.clear();
        }
        long deadline = System.nanoTime() + TIMEOUT.toNanos();
        for (Thread thread : started) {
            try {
                thread.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime())));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError("interrupted while shutting clients down", e);
            }
        }
    }
}
