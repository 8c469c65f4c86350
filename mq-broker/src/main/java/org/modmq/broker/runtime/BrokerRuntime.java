package org.modmq.broker.runtime;

import java.time.Clock;
import java.util.Objects;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.atomic.AtomicLong;
import org.modmq.api.spi.MetricsSink;
import org.modmq.broker.client.ConsumerGroupRegistry;
import org.modmq.broker.client.ProducerRegistry;
import org.modmq.broker.config.BrokerConfig;
import org.modmq.broker.metadata.BrokerMetadata;
import org.modmq.broker.stats.BrokerLoad;
import org.modmq.broker.stats.BrokerStats;

/**
 * What the parts of a running broker share: configuration, clock, scheduler, metadata tables and the
 * client registries. The broker owns all of them; a user (the store binding, a processor) never shuts
 * the scheduler down. Immutable holder of thread-safe parts.
 *
 * @param config the parsed {@code broker.conf} as the broker started with it; settings that may change at
 *     run time are read from {@link #current()}
 * @param clock wall clock (tests pass a fixed or manual one)
 * @param scheduler shared scheduler for short periodic tasks
 * @param metadata topics, offsets, subscription groups, delay offsets
 * @param consumers live consumer groups
 * @param producers live producer groups
 * @param stats traffic counters the data path updates and the admin processors read
 * @param ackGate what a stored send's answer passes before it is written (controller mode: the lease)
 * @param load whether the broker is loaded enough to send consumers to a replica
 * @param registeredId the id this broker registers with the name servers now ({@code brokerId}; in
 *     controller mode 0 as master, else the id the controller assigned)
 * @param live the configuration as UPDATE_BROKER_CONFIG changed it
 * @param metrics where the broker and its plugins report figures ({@link MetricsSink#NOOP} when not exported)
 */
public record BrokerRuntime(BrokerConfig config, Clock clock, ScheduledExecutorService scheduler,
                            BrokerMetadata metadata, ConsumerGroupRegistry consumers, ProducerRegistry producers,
                            BrokerStats stats, AckGate ackGate, BrokerLoad load, AtomicLong registeredId,
                            LiveBrokerConfig live, MetricsSink metrics) {

    /** A runtime that reports no figures. */
    public BrokerRuntime(BrokerConfig config, Clock clock, ScheduledExecutorService scheduler,
                         BrokerMetadata metadata, ConsumerGroupRegistry consumers, ProducerRegistry producers,
                         BrokerStats stats, AckGate ackGate, BrokerLoad load, AtomicLong registeredId,
                         LiveBrokerConfig live) {
        this(config, clock, scheduler, metadata, consumers, producers, stats, ackGate, load, registeredId, live,
                MetricsSink.NOOP);
    }

    /** A runtime whose answers pass at once (classic replication) and that never counts as loaded. */
    public BrokerRuntime(BrokerConfig config, Clock clock, ScheduledExecutorService scheduler,
                         BrokerMetadata metadata, ConsumerGroupRegistry consumers, ProducerRegistry producers,
                         BrokerStats stats) {
        this(config, clock, scheduler, metadata, consumers, producers, stats, AckGate.OPEN,
                new BrokerLoad(Integer.MAX_VALUE, 2.0, () -> -1), new AtomicLong(config.identity().brokerId()),
                new LiveBrokerConfig(config, clock));
    }

    public BrokerRuntime {
        Objects.requireNonNull(config, "config");
        Objects.requireNonNull(clock, "clock");
        Objects.requireNonNull(scheduler, "scheduler");
        Objects.requireNonNull(metadata, "metadata");
        Objects.requireNonNull(consumers, "consumers");
        Objects.requireNonNull(producers, "producers");
        Objects.requireNonNull(stats, "stats");
        Objects.requireNonNull(ackGate, "ackGate");
        Objects.requireNonNull(load, "load");
        Objects.requireNonNull(registeredId, "registeredId");
        Objects.requireNonNull(live, "live");
        Objects.requireNonNull(metrics, "metrics");
    }

    /** The configuration in force now: {@link #config()} with the run-time changes applied. */
    public BrokerConfig current() {
        return live.current();
    }
}
