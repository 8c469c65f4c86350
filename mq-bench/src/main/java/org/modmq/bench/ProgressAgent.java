package org.modmq.bench;

import java.io.PrintWriter;
import java.util.Locale;
import java.util.Objects;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * Prints one progress line per second while a workload runs: elapsed seconds, the phase, the
 * rate of completed messages over the last second, the running total and errors. Owns one daemon
 * thread; {@link #close()} stops it and is idempotent. The phase may be changed from any thread.
 */
final class ProgressAgent implements AutoCloseable {

    private final PrintWriter out;
    private final String workload;
    private final LongSupplier completed;
    private final LongSupplier errors;
    private final long startedNanos = System.nanoTime();
    private final ScheduledExecutorService timer;
    private volatile String phase = "start";
    private long lastCompleted;
    private long lastNanos = startedNanos;

    /**
     * Starts printing to {@code out}; prints nothing when {@code quiet}.
     *
     * @param completed running count of completed messages
     * @param errors    running count of errors
     */
    ProgressAgent(PrintWriter out, String workload, LongSupplier completed, LongSupplier errors, boolean quiet) {
        this.out = Objects.requireNonNull(out, "out");
        this.workload = Objects.requireNonNull(workload, "workload");
        this.completed = Objects.requireNonNull(completed, "completed");
        this.errors = Objects.requireNonNull(errors, "errors");
        if (quiet) {
            timer = null;
        } else {
            timer = Executors.newSingleThreadScheduledExecutor(runnable -> {
                Thread thread = new Thread(runnable, "bench-progress");
                thread.setDaemon(true);
                return thread;
            });
            timer.scheduleAtFixedRate(this::tick, 1, 1, TimeUnit.SECONDS);
        }
    }

    /** Names what the workload is doing now (warm-up, measure, drain...). */
    void phase(String phase) {
        this.phase = Objects.requireNonNull(phase, "phase");
    }

    private void tick() {
        long now = System.nanoTime();
        long total = completed.getAsLong();
        double rate = (total - lastCompleted) / Math.max(1e-9, (now - lastNanos) / 1e9);
        lastCompleted = total;
        lastNanos = now;
        out.printf(Locale.ROOT, "[%s] %5.1fs %-8s %10.0f msgs/s  total %d  errors %d%n",
                workload, (now - startedNanos) / 1e9, phase, rate, total, errors.getAsLong());
        out.flush();
    }

    @Override
    public void close() {
        if (timer != null && !timer.isShutdown()) {
            timer.shutdownNow();
        }
    }
}
