package org.modmq.bench;

import java.util.Objects;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;

/**
 * Runs a time-bound workload: starts worker threads, lets them run through the warm-up, opens the
 * meter's measured window for the configured duration, closes it and stops the workers. A worker
 * that fails ends the run early with its failure. One instance per run, driven by one thread.
 */
final class LoadRunner {

    /** The body of one load thread: loops while {@code running} answers true. */
    @FunctionalInterface
    interface Worker {
        void run(BooleanSupplier running) throws Exception;
    }

    private static final long STOP_TIMEOUT_SECONDS = 30;

    private final TimingOptions timing;
    private final LoadMeter meter;
    private final ProgressAgent progress;

    LoadRunner(TimingOptions timing, LoadMeter meter, ProgressAgent progress) {
        this.timing = Objects.requireNonNull(timing, "timing");
        this.meter = Objects.requireNonNull(meter, "meter");
        this.progress = Objects.requireNonNull(progress, "progress");
    }

    /**
     * Runs {@code threads} copies of {@code worker} through warm-up and measurement.
     *
     * @throws BenchException       if a worker failed or the workers did not stop within 30 s
     * @throws InterruptedException if the calling thread was interrupted (workers are stopped first)
     */
    void run(String name, int threads, Worker worker) throws BenchException, InterruptedException {
        AtomicBoolean running = new AtomicBoolean(true);
        CountDownLatch failed = new CountDownLatch(1);
        AtomicReference<Exception> failure = new AtomicReference<>();
        AtomicInteger index = new AtomicInteger();
        ExecutorService pool = Executors.newFixedThreadPool(threads, runnable -> {
            Thread thread = new Thread(runnable, name + "-" + index.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        });
        try {
            for (int i = 0; i < threads; i++) {
                pool.execute(() -> {
                    try {
                        worker.run(running::get);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    } catch (Exception e) {
                        failure.compareAndSet(null, e);
                        failed.countDown();
                    }
                });
            }
            progress.phase("warmup");
            if (!failed.await(timing.warmupSeconds, TimeUnit.SECONDS)) {
                meter.beginMeasuring();
                progress.phase("measure");
                failed.await(timing.durationSeconds, TimeUnit.SECONDS);
                meter.endMeasuring();
            }
        } finally {
            running.set(false);
            progress.phase("stop");
            pool.shutdown();
            if (!pool.awaitTermination(STOP_TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                pool.shutdownNow();
                throw new BenchException("load threads did not stop within " + STOP_TIMEOUT_SECONDS + " s");
            }
        }
        if (failure.get() != null) {
            throw new BenchException("a load thread failed: " + failure.get(), failure.get());
        }
    }
}
