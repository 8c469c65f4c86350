package org.modmq.bench;

import java.util.concurrent.TimeUnit;

/**
 * Watches a killed process until it is gone from the process table: its exit (the kernel tears down
 * its memory before it closes its sockets, so a large resident heap delays what peers notice) plus the
 * moment its parent reaps it. Polls every millisecond on one daemon thread, up to a deadline.
 * Thread-safe; {@link #close()} stops the thread and is idempotent.
 */
final class ExitWatch implements AutoCloseable {

    private static final long POLL_NANOS = TimeUnit.MILLISECONDS.toNanos(1);

    private final Thread thread;
    private volatile long goneNanos = -1;

    /** Starts watching {@code pid} until {@code deadlineNanos} ({@link System#nanoTime()}). */
    ExitWatch(long pid, long deadlineNanos) {
        thread = new Thread(() -> watch(pid, deadlineNanos), "bench-exit-watch");
        thread.setDaemon(true);
        thread.start();
    }

    private void watch(long pid, long deadlineNanos) {
        try {
            while (System.nanoTime() - deadlineNanos < 0) {
                if (ProcessHandle.of(pid).map(p -> !p.isAlive()).orElse(true)) {
                    goneNanos = System.nanoTime();
                    return;
                }
                Pacing.pause(POLL_NANOS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** When the process was first seen gone, or -1 if it was not (yet). */
    long goneNanos() {
        return goneNanos;
    }

    @Override
    public void close() {
        thread.interrupt();
    }
}
