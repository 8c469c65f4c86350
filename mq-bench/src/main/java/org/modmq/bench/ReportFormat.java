package org.modmq.bench;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import org.apache.rocketmq.common.MQVersion;

/**
 * How a {@link BenchReport} is printed: a human-readable block, one JSON line, or one line of
 * space-separated {@code key=value} pairs for shell scripts. The JSON and key=value forms carry the
 * same keys: {@code workload, messages, seconds, msgs_per_sec, mib_per_sec, errors}, then, when the
 * workload measures latency, {@code latency_kind, latency_samples, p50_ms, p99_ms, p999_ms, max_ms},
 * then the report's extras. Numbers use a dot as decimal separator whatever the locale.
 */
enum ReportFormat {
    /** A few aligned lines for people. */
    TEXT {
        @Override
        String format(BenchReport report) {
            StringBuilder out = new StringBuilder();
            out.append(String.format(Locale.ROOT, "== %s ==%n", report.workload()));
            out.append(String.format(Locale.ROOT, "messages   %d in %.2f s, errors %d%n",
                    report.messages(), report.seconds(), report.errors()));
            out.append(String.format(Locale.ROOT, "throughput %.1f msgs/s, %.2f MiB/s%n",
                    report.messagesPerSecond(), report.mebibytesPerSecond()));
            LatencySummary latency = report.latency();
            if (latency != null) {
                out.append(String.format(Locale.ROOT,
                        "latency    %s p50 %.3f ms, p99 %.3f ms, p99.9 %.3f ms, max %.3f ms (%d samples)%n",
                        latency.kind(), latency.p50Ms(), latency.p99Ms(), latency.p999Ms(), latency.maxMs(),
                        latency.samples()));
            }
            report.extras().forEach((key, value) -> out.append(String.format(Locale.ROOT, "%-10s %s%n", key, value)));
            return out.toString();
        }
    },
    /** One JSON object on one line. */
    JSON {
        @Override
        String format(BenchReport report) {
            StringBuilder out = new StringBuilder("{");
            fields(report).forEach((key, value) -> {
                if (out.length() > 1) {
                    out.append(',');
                }
                out.append('"').append(escape(key)).append("\":");
                out.append(value instanceof String text ? '"' + escape(text) + '"' : value.toString());
            });
            return out.append('}').append(System.lineSeparator()).toString();
        }
    },
    /** One line of {@code key=value} pairs; values never contain spaces. */
    KV {
        @Override
        String format(BenchReport report) {
            StringBuilder out = new StringBuilder();
            fields(report).forEach((key, value) -> {
                if (out.length() > 0) {
                    out.append(' ');
                }
                out.append(key).append('=').append(value.toString().replace(' ', '_'));
            });
            return out.append(System.lineSeparator()).toString();
        }
    };

    /** Renders the report, ending with a line separator. */
    abstract String format(BenchReport report);

    /** The machine-readable fields in print order; numbers stay numbers, text stays {@link String}. */
    static Map<String, Object> fields(BenchReport report) {
        Objects.requireNonNull(report, "report");
        Map<String, Object> fields = new LinkedHashMap<>();
        fields.put("workload", report.workload());
        fields.put("messages", report.messages());
        fields.put("seconds", new Decimal(report.seconds(), 3));
        fields.put("msgs_per_sec", new Decimal(report.messagesPerSecond(), 1));
        fields.put("mib_per_sec", new Decimal(report.mebibytesPerSecond(), 3));
        fields.put("errors", report.errors());
        LatencySummary latency = report.latency();
        if (latency != null) {
            fields.put("latency_kind", latency.kind());
            fields.put("latency_samples", latency.samples());
            fields.put("p50_ms", new Decimal(latency.p50Ms(), 3));
            fields.put("p99_ms", new Decimal(latency.p99Ms(), 3));
            fields.put("p999_ms", new Decimal(latency.p999Ms(), 3));
            fields.put("max_ms", new Decimal(latency.maxMs(), 3));
        }
        report.extras().forEach((key, value) -> fields.put(key, isNumber(value) ? new Decimal(value) : value));
        // The stock client line that ran the workload: a script may put another one on the class path.
        fields.put("client_version", MQVersion.getVersionDesc(MQVersion.CURRENT_VERSION));
        return fields;
    }

    private static boolean isNumber(String value) {
        return value.matches("-?\\d+(\\.\\d+)?");
    }

    private static String escape(String text) {
        StringBuilder out = new StringBuilder(text.length());
        for (char c : text.toCharArray()) {
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                default -> {
                    if (c < 0x20) {
                        out.append(String.format(Locale.ROOT, "\\u%04x", (int) c));
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        return out.toString();
    }

    /** A number printed with a fixed number of decimals (or verbatim when already text). */
    record Decimal(String text) {
        Decimal(double value, int decimals) {
            this(String.format(Locale.ROOT, "%." + decimals + "f", value));
        }

        @Override
        public String toString() {
            return text;
        }
    }
}
