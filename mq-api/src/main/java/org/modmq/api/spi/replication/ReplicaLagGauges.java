package org.modmq.api.spi.replication;

import java.time.Clock;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import org.modmq.api.spi.MetricsSink;

/**
 * The master side's replica lag, reported through the plugin context's {@link MetricsSink}: a
 * {@link ReplicaProgress} in front of the store's that remembers each connected replica's last
 * acknowledgement and when it last held the whole log. Scraped as {@code modmq_replica_lag_bytes} (log end −
 * acknowledged offset) and {@code modmq_replica_lag_seconds} (how long the replica has not held the log end;
 * 0 when it does), labelled with the replica and the strategy's name. A strategy puts it between the store's
 * progress and its own sessions ({@link ReplicationContext#progress()}); both bundled strategies do.
 * Thread-safe: acknowledgements come from the event loop, scrapes from the exporter.
 */
public final class ReplicaLagGauges implements ReplicaProgress {

    /** One replica's last acknowledgement and the last time it held everything. */
    private record Ack(long offset, long caughtUpMillis) {
    }

    private final ReplicaProgress delegate;
    private final ReplicatedLog log;
    private final Clock clock;
    private final Map<ReplicaLink, Ack> acks = new ConcurrentHashMap<>();

    /**
     * Registers the two gauges with {@code sink}.
     *
     * @param delegate the store's progress, told of every acknowledgement and disconnection
     * @param strategy the strategy's provider name, the {@code strategy} label
     */
    public ReplicaLagGauges(ReplicaProgress delegate, ReplicatedLog log, Clock clock, MetricsSink sink,
                            String strategy) {
        this.delegate = Objects.requireNonNull(delegate, "delegate");
        this.log = Objects.requireNonNull(log, "log");
        this.clock = Objects.requireNonNull(clock, "clock");
        Objects.requireNonNull(strategy, "strategy");
        sink.gaugeCallback("modmq_replica_lag_bytes", "CommitLog bytes the replica has not acknowledged yet",
                out -> acks.forEach((link, ack) -> out.sample(Math.max(0, log.maxOffset() - ack.offset()),
                        link.address(), Long.toString(link.brokerId()), strategy)),
                "replica", "replica_id", "strategy");
        sink.gaugeCallback("modmq_replica_lag_seconds", "How long the replica has not held the master's log end",
                out -> {
                    long now = clock.millis();
                    acks.forEach((link, ack) -> out.sample(ack.offset() >= log.maxOffset() ? 0
                            : Math.max(0, now - ack.caughtUpMillis()) / 1000.0, link.address(),
                            Long.toString(link.brokerId()), strategy));
                }, "replica", "replica_id", "strategy");
    }

    @Override
    public void acknowledged(ReplicaLink replica, long offset) {
        long now = clock.millis();
        acks.compute(replica, (link, old) -> {
            long held = old == null ? offset : Math.max(old.offset(), offset);
            boolean caughtUp = held >= log.maxOffset();
            return new Ack(held, caughtUp || old == null ? now : old.caughtUpMillis());
        });
        delegate.acknowledged(replica, offset);
    }

    @Override
    public void disconnected(ReplicaLink replica) {
        acks.remove(replica);
        delegate.disconnected(replica);
    }
}
