package org.modmq.bench;

import java.util.Objects;
import org.HdrHistogram.Histogram;

/**
 * Percentiles of one latency histogram, in milliseconds.
 *
 * @param kind    what was measured: {@code send} (request to response) or {@code e2e} (send to receipt)
 * @param samples number of recorded samples
 * @param p50Ms   median
 * @param p99Ms   99th percentile
 * @param p999Ms  99.9th percentile
 * @param maxMs   largest sample
 */
record LatencySummary(String kind, long samples, double p50Ms, double p99Ms, double p999Ms, double maxMs) {

    LatencySummary {
        Objects.requireNonNull(kind, "kind");
    }

    /** Summarises a histogram of microsecond values. */
    static LatencySummary of(String kind, Histogram micros) {
        Objects.requireNonNull(micros, "micros");
        if (micros.getTotalCount() == 0) {
            return new LatencySummary(kind, 0, 0, 0, 0, 0);
        }
        return new LatencySummary(kind, micros.getTotalCount(),
                micros.getValueAtPercentile(50) / 1000.0,
                micros.getValueAtPercentile(99) / 1000.0,
                micros.getValueAtPercentile(99.9) / 1000.0,
                micros.getMaxValue() / 1000.0);
    }
}
