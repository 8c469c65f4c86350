package org.modmq.store;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.StringJoiner;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The time each phase of a store open took, for the one INFO line that says where a restart's time
 * went (each phase also at DEBUG as it ends). Used by the opening thread only.
 */
final class OpenTimer {

    private static final Logger LOG = LoggerFactory.getLogger(OpenTimer.class);

    private final long started = System.nanoTime();
    private final Map<String, Long> phases = new LinkedHashMap<>();
    private long last = started;

    /** Ends the phase named {@code phase} (the time since the previous mark). */
    void mark(String phase) {
        long now = System.nanoTime();
        phases.merge(phase, now - last, Long::sum);
        LOG.debug("store open: {} took {} ms", phase, millis(now - last));
        last = now;
    }

    /** Milliseconds per phase so far, in order. */
    Map<String, Double> phases() {
        Map<String, Double> out = new LinkedHashMap<>();
        phases.forEach((phase, nanos) -> out.put(phase, nanos / 1e6));
        return out;
    }

    /** "total 412.3 ms: phase 1.2, phase 3.4, ..." */
    String summary() {
        StringJoiner parts = new StringJoiner(", ", "total " + millis(last - started) + " ms: ", "");
        phases.forEach((phase, nanos) -> parts.add(phase + " " + millis(nanos)));
        return parts.toString();
    }

    private static String millis(long nanos) {
        return String.format("%.1f", nanos / 1e6);
    }
}
