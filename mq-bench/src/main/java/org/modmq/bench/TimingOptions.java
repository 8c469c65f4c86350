package org.modmq.bench;

import picocli.CommandLine.Option;

/**
 * Warm-up and measured duration of a time-bound workload (a picocli mixin).
 */
final class TimingOptions {

    @Option(names = {"-w", "--warmup"}, paramLabel = "SECONDS", defaultValue = "5",
            description = "Seconds of load before measuring starts (default: ${DEFAULT-VALUE}).")
    int warmupSeconds;

    @Option(names = {"-d", "--duration"}, paramLabel = "SECONDS", defaultValue = "30",
            description = "Measured seconds after the warm-up (default: ${DEFAULT-VALUE}).")
    int durationSeconds;

    /** Returns an error message or {@code null}. */
    String validate() {
        if (warmupSeconds < 0) {
            return "--warmup must not be negative";
        }
        if (durationSeconds < 1) {
            return "--duration must be at least 1 second";
        }
        return null;
    }
}
