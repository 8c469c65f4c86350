package org.modmq.broker.admin;

import org.modmq.broker.runtime.QueueStatsSource;

import org.modmq.broker.stats.BrokerStats;

import java.util.Objects;
import java.util.function.Supplier;
import org.modmq.broker.runtime.BrokerRuntime;

/**
 * What the admin processors read: the broker's shared runtime (config, clock, metadata, client
 * registries), the store's queue figures, the traffic statistics, the executor queues and the
 * broker's own address. Immutable holder of thread-safe parts, all owned by the broker.
 *
 * @param runtime the broker's shared parts
 * @param queues queue bounds and store times ({@link QueueStatsSource#EMPTY} without a store)
 * @param stats traffic figures fed by the send and pull paths
 * @param executors request executor queue depths ({@link ExecutorQueueProbe#NONE} when unknown)
 * @param brokerAddr {@code brokerIP1:port} of the bound main port; asked only while serving requests
 */
public record AdminContext(BrokerRuntime runtime, QueueStatsSource queues, BrokerStats stats,
                           ExecutorQueueProbe executors, Supplier<String> brokerAddr) {

    public AdminContext {
        Objects.requireNonNull(runtime, "runtime");
        Objects.requireNonNull(queues, "queues");
        Objects.requireNonNull(stats, "stats");
        Objects.requireNonNull(executors, "executors");
        Objects.requireNonNull(brokerAddr, "brokerAddr");
    }

    String brokerName() {
        return runtime.config().identity().brokerName();
    }
}
