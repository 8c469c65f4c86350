package org.modmq.interop;

import java.util.Objects;
import org.slf4j.Logger;

/**
 * Logs how long each phase of a scenario took, so a slow run shows where its time went. Used from one
 * test thread.
 */
final class Phases {

    private final Logger log;
    private final String scenario;
    private final long start = System.nanoTime();
    private long last = start;

    Phases(Logger log, String scenario) {
        this.log = Objects.requireNonNull(log, "log");
        this.scenario = Objects.requireNonNull(scenario, "scenario");
    }

    /** Logs that {@code phase} just ended, with its duration and the total so far. */
    void done(String phase) {
        long now = System.nanoTime();
        log.info("{}: {} in {} ms (total {} ms)", scenario, phase, (now - last) / 1_000_000, (now - start) / 1_000_000);
        last = now;
    }
}
