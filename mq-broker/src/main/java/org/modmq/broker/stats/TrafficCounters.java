package org.modmq.broker.stats;

import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;
import org.modmq.api.message.MessageSysFlag;
import org.modmq.api.spi.MetricsSink;
import org.modmq.broker.metadata.SubscriptionGroupTable;
import org.modmq.broker.metadata.TopicValidator;

/**
 * Messages and bytes stored per topic and message type, and delivered per topic and group, as RocketMQ 5
 * counts them ({@code rocketmq_messages_in_total}, {@code rocketmq_throughput_in_total},
 * {@code rocketmq_messages_out_total}, {@code rocketmq_throughput_out_total}, {@code rocketmq_message_size}).
 * The data path adds to striped adders found by one map lookup; the totals are read when scraped
 * ({@link #register}). Thread-safe.
 */
public final class TrafficCounters {

    /** Message size buckets in bytes: RocketMQ's 1 KiB, 4 KiB, 512 KiB, 1 MiB, 2 MiB, 4 MiB. */
    static final double[] SIZE_BUCKETS = {1024, 4096, 512 * 1024, 1024 * 1024, 2 * 1024 * 1024, 4 * 1024 * 1024};

    /** RocketMQ's {@code message_type} label values that a remoting send can have. */
    public enum MessageType {
        NORMAL, DELAY, TRANSACTION;

        private final String label = name().toLowerCase(Locale.ROOT);

        /** The type of a message with these flags and properties ({@code MessageProperties} encoding). */
        public static MessageType of(int sysFlag, String properties) {
            if (MessageSysFlag.transactionType(sysFlag) == MessageSysFlag.TRANSACTION_PREPARED_TYPE) {
                return TRANSACTION;
            }
            // DELAY and the TIMER_* keys each start a property (name, 0x01, value, 0x02).
            return properties.contains("DELAY\u0001") || properties.contains("TIMER_DELIVER_MS\u0001")
                    || properties.contains("TIMER_DELAY_MS\u0001") || properties.contains("TIMER_DELAY_SEC\u0001")
                    ? DELAY : NORMAL;
        }
    }

    /** One flow's two counts. */
    private static final class Flow {
        final LongAdder messages = new LongAdder();
        final LongAdder bytes = new LongAdder();
    }

    /** A topic's stored traffic by message type, with its size-histogram handles. */
    private static final class TopicIn {
        final Flow[] byType = new Flow[MessageType.values().length];
        final MetricsSink.Histogram[] sizes = new MetricsSink.Histogram[MessageType.values().length];

        TopicIn(String topic, MetricsSink.Family<MetricsSink.Histogram> sizeFamily) {
            String system = Boolean.toString(isSystemTopic(topic));
            for (MessageType type : MessageType.values()) {
                byType[type.ordinal()] = new Flow();
                sizes[type.ordinal()] = sizeFamily.labels(topic, type.label, system);
            }
        }
    }

    private final Map<String, TopicIn> in = new ConcurrentHashMap<>();
    private final Map<String, Map<String, Flow>> out = new ConcurrentHashMap<>();
    private final MetricsSink.Family<MetricsSink.Histogram> sizeFamily;

    /** @param sink where {@code rocketmq_message_size} is observed */
    public TrafficCounters(MetricsSink sink) {
        Objects.requireNonNull(sink, "sink");
        sizeFamily = sink.histogram("rocketmq_message_size", "Incoming messages size (bytes, a batch's average)",
                SIZE_BUCKETS, "topic", "message_type", "is_system");
    }

    /** Counts one stored put of {@code messages} messages with {@code bytes} body bytes in all. */
    public void stored(String topic, MessageType type, int messages, long bytes) {
        TopicIn counts = in.get(topic);
        if (counts == null) {
            counts = in.computeIfAbsent(topic, t -> new TopicIn(t, sizeFamily));
        }
        Flow flow = counts.byType[type.ordinal()];
        flow.messages.add(messages);
        flow.bytes.add(bytes);
        counts.sizes[type.ordinal()].observe(messages == 0 ? 0 : (double) bytes / messages);
    }

    /** Counts one pull that delivered {@code messages} messages with {@code bytes} stored bytes. */
    public void delivered(String topic, String group, int messages, long bytes) {
        Map<String, Flow> groups = out.get(topic);
        if (groups == null) {
            groups = out.computeIfAbsent(topic, t -> new ConcurrentHashMap<>());
        }
        Flow flow = groups.get(group);
        if (flow == null) {
            flow = groups.computeIfAbsent(group, g -> new Flow());
        }
        flow.messages.add(messages);
        flow.bytes.add(bytes);
    }

    /** Registers the four counters with {@code sink}, read from these counts when scraped. */
    public void register(MetricsSink sink) {
        sink.counterCallback("rocketmq_messages_in_total", "Total number of incoming messages",
                samples -> inSamples(samples, true), "topic", "message_type", "is_system");
        sink.counterCallback("rocketmq_throughput_in_total", "Total traffic of incoming messages (body bytes)",
                samples -> inSamples(samples, false), "topic", "message_type", "is_system");
        sink.counterCallback("rocketmq_messages_out_total", "Total number of outgoing messages",
                samples -> outSamples(samples, true), "topic", "consumer_group", "is_retry", "is_system");
        sink.counterCallback("rocketmq_throughput_out_total", "Total traffic of outgoing messages (stored bytes)",
                samples -> outSamples(samples, false), "topic", "consumer_group", "is_retry", "is_system");
    }

    private void inSamples(MetricsSink.Samples samples, boolean messages) {
        in.forEach((topic, counts) -> {
            String system = Boolean.toString(isSystemTopic(topic));
            for (MessageType type : MessageType.values()) {
                Flow flow = counts.byType[type.ordinal()];
                long value = messages ? flow.messages.sum() : flow.bytes.sum();
                if (value > 0 || type == MessageType.NORMAL) {
                    samples.sample(value, topic, type.label, system);
                }
            }
        });
    }

    private void outSamples(MetricsSink.Samples samples, boolean messages) {
        out.forEach((topic, groups) -> groups.forEach((group, flow) -> samples.sample(
                messages ? flow.messages.sum() : flow.bytes.sum(), topic, group,
                Boolean.toString(TopicValidator.isRetryTopic(topic)),
                Boolean.toString(isSystemTopic(topic) || isSystemGroup(group)))));
    }

    /** RocketMQ's {@code is_system} for a topic: its reserved names ({@code rmq_sys_*}, TBW102, …). */
    public static boolean isSystemTopic(String topic) {
        return TopicValidator.isSystemName(topic) && !TopicValidator.isRetryTopic(topic)
                && !topic.startsWith(TopicValidator.DLQ_PREFIX);
    }

    /** RocketMQ's {@code is_system} for a group: the built-in groups and {@code CID_RMQ_SYS_*}. */
    public static boolean isSystemGroup(String group) {
        return SubscriptionGroupTable.SYSTEM_GROUPS.contains(group) || group.startsWith("CID_RMQ_SYS_");
    }
}
