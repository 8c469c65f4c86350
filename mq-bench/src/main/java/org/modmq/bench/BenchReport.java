package org.modmq.bench;

import java.util.Collections;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * The outcome of one workload run: throughput over the measured window, one latency summary
 * (absent for workloads without one) and workload-specific extra figures.
 *
 * @param workload  workload name, e.g. {@code produce-sync}
 * @param messages  messages completed in the measured window
 * @param seconds   length of the measured window
 * @param bytes     message body bytes completed in the measured window
 * @param errors    failed operations in the measured window
 * @param latency   latency percentiles, or {@code null}
 * @param extras    further figures, printed sorted by key (copied)
 */
record BenchReport(String workload, long messages, double seconds, long bytes, long errors,
                   LatencySummary latency, Map<String, String> extras) {

    BenchReport {
        Objects.requireNonNull(workload, "workload");
        extras = Collections.unmodifiableMap(new TreeMap<>(extras == null ? Map.of() : extras));
    }

    /** Builds a report from a meter whose measured window has ended. */
    static BenchReport of(String workload, LoadMeter meter, String latencyKind, Map<String, String> extras) {
        Objects.requireNonNull(meter, "meter");
        LatencySummary latency = latencyKind == null ? null : LatencySummary.of(latencyKind, meter.takeLatencies());
        return new BenchReport(workload, meter.measuredMessages(), meter.measuredSeconds(),
                meter.measuredBytes(), meter.measuredErrors(), latency, extras);
    }

    /** Messages per second over the measured window (0 for an empty window). */
    double messagesPerSecond() {
        return seconds <= 0 ? 0 : messages / seconds;
    }

    /** Body throughput in MiB (1,048,576 bytes) per second. */
    double mebibytesPerSecond() {
        return seconds <= 0 ? 0 : bytes / seconds / (1024.0 * 1024.0);
    }
}
