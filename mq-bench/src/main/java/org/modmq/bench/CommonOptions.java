package org.modmq.bench;

import java.util.Locale;
import picocli.CommandLine.Option;

/**
 * Options every workload shares: where the name server is, which topic, message size and count
 * of queues, and how the report is printed. A picocli mixin; filled once by the parser, then read
 * by the command's thread only.
 */
final class CommonOptions {

    @Option(names = {"-n", "--namesrv"}, required = true, paramLabel = "HOST:PORT[;HOST:PORT]",
            description = "Name server address(es). Required: without one the client would look one up over HTTP.")
    String namesrv;

    @Option(names = {"--topic"}, paramLabel = "TOPIC",
            description = "Topic to use (default: a fresh one per run, bench_<workload>_<millis>).")
    String topic;

    @Option(names = {"-s", "--size"}, paramLabel = "BYTES", defaultValue = "1024",
            description = "Message body size in bytes (default: ${DEFAULT-VALUE}).")
    int size;

    @Option(names = {"-q", "--queues"}, paramLabel = "N", defaultValue = "8",
            description = "Queues of a topic created on its first send (default: ${DEFAULT-VALUE}).")
    int queues;

    @Option(names = {"--send-timeout"}, paramLabel = "MS", defaultValue = "3000",
            description = "Client send timeout in milliseconds (default: ${DEFAULT-VALUE}).")
    int sendTimeoutMillis;

    @Option(names = {"-f", "--format"}, paramLabel = "FORMAT", defaultValue = "TEXT",
            description = "Report format: ${COMPLETION-CANDIDATES} (default: ${DEFAULT-VALUE}). "
                    + "JSON and KV print one line for scripts.")
    ReportFormat format;

    @Option(names = {"--quiet"}, description = "No progress lines on stderr.")
    boolean quiet;

    /** The topic to use for {@code workload}: the configured one or a fresh name. */
    String topicFor(String workload) {
        if (topic != null) {
            return topic;
        }
        return ("bench_" + workload + "_" + System.currentTimeMillis()).replace('-', '_').toLowerCase(Locale.ROOT);
    }

    /** Checks value ranges picocli cannot express; returns an error message or {@code null}. */
    String validate() {
        if (size < 8) {
            return "--size must be at least 8 bytes";
        }
        if (queues < 1) {
            return "--queues must be at least 1";
        }
        if (sendTimeoutMillis < 1) {
            return "--send-timeout must be positive";
        }
        if (namesrv.isBlank()) {
            return "--namesrv must not be blank";
        }
        return null;
    }
}
