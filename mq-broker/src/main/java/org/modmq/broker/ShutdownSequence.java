package org.modmq.broker;

import java.util.EnumMap;
import java.util.Map;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The broker's close actions, run in the fixed order of {@link Step} whatever order they were added
 * in (start-up opens things in another order than shutdown must close them). Keeps going after a
 * failure and rethrows the first one with the others suppressed. Not thread-safe: owned by
 * {@link BrokerServer}, which serialises start and close.
 */
final class ShutdownSequence {

    private static final Logger LOG = LoggerFactory.getLogger(ShutdownSequence.class);

    /** Close steps, in execution order. */
    enum Step {
        /** Stop serving {@code /metrics} (its gauges read the parts closed below). */
        METRICS,
        /** Stop the periodic name-server registration. */
        REGISTRATION,
        /** Stop accepting, drain in-flight requests, close client connections. */
        SERVER,
        /** The same for the VIP port ({@code listenPort - 2}). */
        VIP_SERVER,
        /** Controller mode: stop heartbeats and close the controller connections (a master's leave is seen at once). */
        CONTROLLER,
        /** Tell every name server this broker is gone. */
        UNREGISTER,
        /** Stop fetching metadata from the master (slaves only). */
        SLAVE_SYNC,
        /** Close the connections to the name servers. */
        CLIENT,
        /** Stop the processor executors. */
        EXECUTORS,
        /** Persist the metadata tables. */
        PERSIST,
        /** Flush and close the message store. */
        STORE,
        /** Stop the scheduler. */
        SCHEDULER
    }

    private final Map<Step, AutoCloseable> actions = new EnumMap<>(Step.class);

    void at(Step step, AutoCloseable action) {
        actions.put(Objects.requireNonNull(step, "step"), Objects.requireNonNull(action, "action"));
    }

    /** Runs and forgets every action. */
    void run() {
        RuntimeException first = null;
        for (Map.Entry<Step, AutoCloseable> entry : actions.entrySet()) {
            try {
                entry.getValue().close();
            } catch (Exception e) {
                LOG.warn("shutdown step {} failed", entry.getKey(), e);
                if (first == null) {
                    first = e instanceof RuntimeException r ? r
                            : new IllegalStateException("shutdown step " + entry.getKey() + " failed", e);
                } else {
                    first.addSuppressed(e);
                }
            }
        }
        actions.clear();
        if (first != null) {
            throw first;
        }
    }
}
