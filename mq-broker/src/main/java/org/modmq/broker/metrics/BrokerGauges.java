package org.modmq.broker.metrics;

import java.nio.file.Path;
import java.time.Clock;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.function.Supplier;
import org.modmq.api.spi.MetricsSink;
import org.modmq.api.spi.replication.RoleState;
import org.modmq.broker.admin.DiskUsage;
import org.modmq.broker.admin.ExecutorQueueProbe;
import org.modmq.broker.client.ClientChannelInfo;
import org.modmq.broker.client.ConsumerGroupView;
import org.modmq.broker.runtime.BrokerRuntime;
import org.modmq.broker.runtime.ProcessorRegistrar.ExecutorKind;
import org.modmq.broker.runtime.QueueStatsSource;
import org.modmq.broker.stats.TrafficCounters;

/**
 * The broker's gauges read from live objects when scraped: RocketMQ 5's processor watermark, permission,
 * topic and group numbers, producer and consumer connections and storage figures, and modmq's role, epoch
 * and disk usage. Nothing here runs on the data path. Stateless after construction; thread-safe.
 */
public final class BrokerGauges {

    private static final String REMOTING = "remoting";

    private final BrokerRuntime runtime;
    private final QueueStatsSource queues;
    private final ExecutorQueueProbe executors;
    private final Supplier<RoleState> role;
    private final Clock clock;

    /**
     * @param runtime   metadata, client registries, configuration
     * @param queues    the store's offsets and positions
     * @param executors the request executors' queues
     * @param role      the store's role now
     */
    public BrokerGauges(BrokerRuntime runtime, QueueStatsSource queues, ExecutorQueueProbe executors,
                        Supplier<RoleState> role) {
        this.runtime = Objects.requireNonNull(runtime, "runtime");
        this.queues = Objects.requireNonNull(queues, "queues");
        this.executors = Objects.requireNonNull(executors, "executors");
        this.role = Objects.requireNonNull(role, "role");
        this.clock = runtime.clock();
    }

    /** Registers every gauge with {@code sink}. */
    public void register(MetricsSink sink) {
        sink.gaugeCallback("rocketmq_processor_watermark", "Requests waiting in each request executor's queue",
                out -> {
                    for (ExecutorKind kind : ExecutorKind.values()) {
                        out.sample(executors.queueSize(kind), kind.name().toLowerCase(Locale.ROOT));
                    }
                }, "processor");
        sink.gaugeCallback("rocketmq_broker_permission", "Broker permission (brokerPermission, 0..7)",
                out -> out.sample(runtime.current().identity().permission()));
        sink.gaugeCallback("rocketmq_topic_number", "Topics configured on this broker",
                out -> out.sample(runtime.metadata().topics().snapshot().size()));
        sink.gaugeCallback("rocketmq_consumer_group_number", "Subscription groups configured on this broker",
                out -> out.sample(runtime.metadata().subscriptionGroups().wrapper().subscriptionGroupTable().size()));
        sink.gaugeCallback("rocketmq_producer_connections", "Producer connections by client language and version",
                this::producerConnections, "language", "version", "protocol_type");
        sink.gaugeCallback("rocketmq_consumer_connections", "Consumer connections by group, language and version",
                this::consumerConnections, "consumer_group", "language", "version", "consume_mode", "protocol_type",
                "is_system");
        registerStorage(sink);
        sink.gaugeCallback("modmq_broker_role", "1 for the role the store has now (master or replica)",
                out -> out.sample(1, role.get().role().name().toLowerCase(Locale.ROOT)), "role");
        sink.gaugeCallback("modmq_broker_epoch", "Master epoch of the store's role (0 without controller mode)",
                out -> out.sample(role.get().epoch()));
    }

    private void registerStorage(MetricsSink sink) {
        Path root = runtime.config().store().rootDir();
        sink.gaugeCallback("rocketmq_storage_size", "Bytes used on the file system of storePathRootDir",
                out -> {
                    long used = usedBytes(root);
                    if (used >= 0) {
                        out.sample(used, "local", "disk");
                    }
                }, "storage_type", "storage_medium");
        sink.gaugeCallback("rocketmq_storage_flush_behind_bytes", "CommitLog bytes written but not yet flushed",
                out -> out.sample(queues.unflushedBytes(), "local", "disk"), "storage_type", "storage_medium");
        sink.gaugeCallback("rocketmq_storage_dispatch_behind_bytes",
                "CommitLog bytes not yet dispatched to the ConsumeQueues",
                out -> out.sample(queues.dispatchBehindBytes(), "local", "disk"), "storage_type", "storage_medium");
        sink.gaugeCallback("rocketmq_storage_message_reserve_time",
                "Age of the oldest message held (ms)", out -> {
                    long earliest = queues.earliestMessageTime();
                    if (earliest > 0) {
                        out.sample(Math.max(0, clock.millis() - earliest), "local", "disk");
                    }
                }, "storage_type", "storage_medium");
        sink.gaugeCallback("modmq_store_disk_used_ratio", "Used fraction (0..1) of the file system of storePathRootDir",
                out -> out.sample(DiskUsage.usedRatio(root)));
        sink.gaugeCallback("modmq_store_commitlog_bytes", "CommitLog bytes held (max offset - min offset)",
                out -> out.sample(Math.max(0, queues.commitLogMaxOffset() - queues.commitLogMinOffset())));
    }

    private static long usedBytes(Path root) {
        java.io.File dir = root.toFile();
        if (!dir.isDirectory()) {
            return -1;
        }
        long total = dir.getTotalSpace();
        return total <= 0 ? -1 : total - dir.getFreeSpace();
    }

    private void producerConnections(MetricsSink.Samples out) {
        Map<String, Integer> counts = new TreeMap<>();
        for (ClientChannelInfo info : runtime.producers().allConnections()) {
            counts.merge(language(info) + '\u0000' + info.version(), 1, Integer::sum);
        }
        counts.forEach((key, count) -> {
            String[] parts = key.split("\u0000", 2);
            out.sample(count, parts[0], parts[1], REMOTING);
        });
    }

    private void consumerConnections(MetricsSink.Samples out) {
        for (ConsumerGroupView group : runtime.consumers().groups()) {
            Map<String, Integer> counts = new TreeMap<>();
            for (ClientChannelInfo info : group.channels()) {
                counts.merge(language(info) + '\u0000' + info.version(), 1, Integer::sum);
            }
            String mode = consumeMode(group.consumeType());
            String system = Boolean.toString(TrafficCounters.isSystemGroup(group.groupName()));
            counts.forEach((key, count) -> {
                String[] parts = key.split("\u0000", 2);
                out.sample(count, group.groupName(), parts[0], parts[1], mode, REMOTING, system);
            });
        }
    }

    private static String language(ClientChannelInfo info) {
        return info.language() == null ? "unknown" : info.language().toLowerCase(Locale.ROOT);
    }

    /** RocketMQ's {@code consume_mode} label: {@code ConsumeType}'s short name, lower case. */
    static String consumeMode(String consumeType) {
        if (consumeType == null) {
            return "unknown";
        }
        return switch (consumeType) {
            case "CONSUME_ACTIVELY" -> "pull";
            case "CONSUME_PASSIVELY" -> "push";
            case "CONSUME_POP" -> "pop";
            default -> consumeType.toLowerCase(Locale.ROOT);
        };
    }
}
