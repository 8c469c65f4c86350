package org.modmq.bench;

import java.util.concurrent.atomic.LongAdder;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;

/**
 * Counts completed messages, bytes and errors of one workload and records latencies into an
 * HdrHistogram {@link Recorder}.
 *
 * <p>Two views are kept: running totals (always counted, read by the progress lines) and the
 * measured window (counted only between {@link #beginMeasuring()} and {@link #endMeasuring()}, so
 * that warm-up and the drain after the end do not distort the report).
 *
 * <p>Thread-safe: any thread may record; {@code begin}/{@code end} are called by the thread that
 * drives the workload. Latencies are in microseconds, clamped to the trackable range.
 */
final class LoadMeter {

    /** Highest latency the histogram tracks: 5 minutes in microseconds. */
    static final long HIGHEST_TRACKABLE_MICROS = 300_000_000L;

    private final LongAdder totalMessages = new LongAdder();
    private final LongAdder totalErrors = new LongAdder();
    private final LongAdder measuredMessages = new LongAdder();
    private final LongAdder measuredBytes = new LongAdder();
    private final LongAdder measuredErrors = new LongAdder();
    private final Recorder latencies = new Recorder(HIGHEST_TRACKABLE_MICROS, 3);
    private volatile boolean measuring;
    private volatile long beganNanos;
    private volatile long endedNanos;

    /** Records {@code messages} completed messages of {@code bytes} bytes in total. */
    void success(int messages, long bytes) {
        totalMessages.add(messages);
        if (measuring) {
            measuredMessages.add(messages);
            measuredBytes.add(bytes);
        }
    }

    /** Records {@code messages} completed messages and the latency of their operation. */
    void success(int messages, long bytes, long latencyMicros) {
        success(messages, bytes);
        if (measuring) {
            recordLatency(latencyMicros);
        }
    }

    /** Records a latency sample without counting messages (e.g. an end-to-end sample). */
    void recordLatency(long latencyMicros) {
        latencies.recordValue(Math.max(0, Math.min(latencyMicros, HIGHEST_TRACKABLE_MICROS)));
    }

    /** Records one failed operation. */
    void error() {
        totalErrors.increment();
        if (measuring) {
            measuredErrors.increment();
        }
    }

    /** Starts the measured window; discards latencies recorded before. */
    void beginMeasuring() {
        latencies.reset();
        beganNanos = System.nanoTime();
        measuring = true;
    }

    /** Ends the measured window. */
    void endMeasuring() {
        measuring = false;
        endedNanos = System.nanoTime();
    }

    /** Whether the measured window is open. */
    boolean measuring() {
        return measuring;
    }

    long totalMessages() {
        return totalMessages.sum();
    }

    long totalErrors() {
        return totalErrors.sum();
    }

    long measuredMessages() {
        return measuredMessages.sum();
    }

    long measuredBytes() {
        return measuredBytes.sum();
    }

    long measuredErrors() {
        return measuredErrors.sum();
    }

    /** Length of the measured window in seconds (0 before it ended). */
    double measuredSeconds() {
        long ended = endedNanos;
        return ended == 0 ? 0 : (ended - beganNanos) / 1e9;
    }

    /** The latencies recorded since the last call (or since {@link #beginMeasuring()}). */
    Histogram takeLatencies() {
        return latencies.getIntervalHistogram();
    }
}
