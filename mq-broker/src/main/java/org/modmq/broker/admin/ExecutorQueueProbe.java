package org.modmq.broker.admin;

import java.util.EnumMap;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.ThreadPoolExecutor;
import org.modmq.broker.runtime.ProcessorRegistrar.ExecutorKind;

/**
 * Queue depths of the broker's request executors, for GET_BROKER_RUNTIME_INFO. Thread-safe; the
 * answers are instantaneous readings.
 */
public interface ExecutorQueueProbe {

    /** A probe that knows no executor: every reading is 0. */
    ExecutorQueueProbe NONE = new ExecutorQueueProbe() {
        @Override
        public int queueSize(ExecutorKind kind) {
            return 0;
        }

        @Override
        public int queueCapacity(ExecutorKind kind) {
            return 0;
        }
    };

    /** Requests waiting in the executor's queue. */
    int queueSize(ExecutorKind kind);

    /** Capacity of the executor's queue. */
    int queueCapacity(ExecutorKind kind);

    /** How long the oldest queued request has waited, in ms; 0 when unknown or empty. */
    default long headWaitMillis(ExecutorKind kind) {
        return 0;
    }

    /**
     * Reads the queues of the given executors; kinds missing from the map, or executors that are not
     * {@link ThreadPoolExecutor}s, read as 0. The map is copied; the executors stay the caller's.
     */
    static ExecutorQueueProbe of(Map<ExecutorKind, ? extends ExecutorService> executors) {
        Map<ExecutorKind, ExecutorService> copy = new EnumMap<>(ExecutorKind.class);
        Objects.requireNonNull(executors, "executors").forEach(copy::put);
        return new ExecutorQueueProbe() {
            @Override
            public int queueSize(ExecutorKind kind) {
                return copy.get(kind) instanceof ThreadPoolExecutor pool ? pool.getQueue().size() : 0;
            }

            @Override
            public int queueCapacity(ExecutorKind kind) {
                return copy.get(kind) instanceof ThreadPoolExecutor pool
                        ? pool.getQueue().size() + pool.getQueue().remainingCapacity() : 0;
            }
        };
    }
}
