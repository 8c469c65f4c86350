package org.modmq.store.flush;

import java.util.Objects;
import org.modmq.api.spi.MetricsSink;
import org.modmq.api.spi.flush.FlushTarget;

/**
 * A {@link FlushTarget} that observes how long each force takes in {@code modmq_flush_latency_seconds}
 * (label {@code policy}: SYNC_FLUSH or ASYNC_FLUSH), through the plugin context's {@link MetricsSink}.
 * Thread-safe as the target is.
 */
final class TimedFlushTarget implements FlushTarget {

    /** Force-time buckets in seconds, 0.1 ms to 5 s. */
    private static final double[] BUCKETS = {0.0001, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25,
        0.5, 1, 5};

    private final FlushTarget target;
    private final MetricsSink.Histogram forces;

    TimedFlushTarget(FlushTarget target, MetricsSink sink, String policy) {
        this.target = Objects.requireNonNull(target, "target");
        this.forces = sink.histogram("modmq_flush_latency_seconds", "Time one force of the CommitLog takes",
                BUCKETS, "policy").labels(policy);
    }

    @Override
    public long writtenOffset() {
        return target.writtenOffset();
    }

    @Override
    public long durableOffset() {
        return target.durableOffset();
    }

    @Override
    public long flush() {
        long started = System.nanoTime();
        try {
            return target.flush();
        } finally {
            forces.observe((System.nanoTime() - started) / 1e9);
        }
    }
}
