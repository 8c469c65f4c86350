package org.modmq.broker.admin;

import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.modmq.broker.admin.AdminBodies.ConsumeStats;
import org.modmq.broker.admin.AdminBodies.MessageQueue;
import org.modmq.broker.admin.AdminBodies.OffsetWrapper;
import org.modmq.broker.client.ConsumerGroupView;
import org.modmq.remoting.protocol.body.TopicConfig;

/**
 * Computes a group's consumption progress on this broker (docs/protocol.md section 10, GET_CONSUME_STATS): for
 * each topic and each of its read queues, the broker's max offset, the committed offset (0 when
 * none), the pull offset (max of committed and last pulled) and the store time of the last consumed
 * message. A topic is skipped when it does not exist here, or when the group has live subscriptions
 * and none to that topic. Stateless over thread-safe parts; thread-safe.
 */
final class ConsumeStatsCollector {

    private final AdminContext context;

    ConsumeStatsCollector(AdminContext context) {
        this.context = Objects.requireNonNull(context, "context");
    }

    /** The progress over {@code topics}, merged into one table, with the summed consume rate. */
    ConsumeStats collect(String group, Collection<String> topics) {
        Map<MessageQueue, OffsetWrapper> table = new LinkedHashMap<>();
        double tps = 0;
        for (String topic : topics) {
            Optional<ConsumeStats> one = forTopic(group, topic, false);
            if (one.isPresent()) {
                table.putAll(one.get().offsetTable());
                tps += one.get().consumeTps();
            }
        }
        return new ConsumeStats(tps, table);
    }

    /**
     * The progress on one topic, or empty when the topic is skipped (see the class comment) or, with
     * {@code onlyOrdered}, is not an ordered topic.
     */
    Optional<ConsumeStats> forTopic(String group, String topic, boolean onlyOrdered) {
        Optional<TopicConfig> config = context.runtime().metadata().topics().get(topic);
        if (config.isEmpty() || (onlyOrdered && !config.get().order())) {
            return Optional.empty();
        }
        Optional<ConsumerGroupView> live = context.runtime().consumers().group(group);
        if (live.isPresent() && !live.get().subscriptions().isEmpty()
                && !live.get().subscriptions().containsKey(topic)) {
            return Optional.empty();
        }
        Map<MessageQueue, OffsetWrapper> table = new LinkedHashMap<>();
        for (int queueId = 0; queueId < config.get().readQueueNums(); queueId++) {
            table.put(new MessageQueue(context.brokerName(), queueId, topic),
                    queueProgress(group, topic, queueId));
        }
        return Optional.of(new ConsumeStats(context.stats().groupGetTps(group, topic), table));
    }

    private OffsetWrapper queueProgress(String group, String topic, int queueId) {
        long brokerOffset = Math.max(0, context.queues().maxOffset(topic, queueId));
        long consumerOffset = Math.max(0, context.runtime().metadata().consumerOffsets()
                .query(group, topic, queueId).orElse(0));
        long pulled = context.stats().pullOffset(group, topic, queueId).orElse(0);
        long lastTimestamp = 0;
        if (consumerOffset > 0) {
            lastTimestamp = Math.max(0, context.queues().storeTimestamp(topic, queueId, consumerOffset - 1));
        }
        return new OffsetWrapper(brokerOffset, consumerOffset, lastTimestamp, Math.max(consumerOffset, pulled));
    }
}
