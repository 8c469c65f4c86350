package org.modmq.broker.slave;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.HashSet;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalLong;
import java.util.Set;
import org.modmq.broker.metadata.BrokerMetadata;
import org.modmq.broker.metadata.SubscriptionGroupConfig;
import org.modmq.remoting.protocol.Json;
import org.modmq.remoting.protocol.body.DataVersion;
import org.modmq.remoting.protocol.body.TopicConfig;

/**
 * Applies the master's metadata snapshots (docs/protocol.md section 12.6) to the slave's own tables, which
 * persist themselves: the topic table and the subscription groups are made equal to the master's
 * when its DataVersion differs from the one last applied; consumer offsets are overwritten per
 * {@code topic@group} and queue (local-only entries stay); delay offsets are overwritten per level.
 * Unchanged entries are not rewritten. Not thread-safe: used by the sync agent's single thread.
 */
final class MetadataMirror {

    private final BrokerMetadata local;
    private DataVersion topicsApplied;
    private DataVersion groupsApplied;

    MetadataMirror(BrokerMetadata local) {
        this.local = Objects.requireNonNull(local, "local");
    }

    /**
     * @param wrapper GET_ALL_TOPIC_CONFIG body
     * @return how many topics were created, changed or deleted
     */
    int applyTopics(JsonNode wrapper) {
        DataVersion version = version(wrapper);
        if (version != null && version.equals(topicsApplied)) {
            return 0;
        }
        int changes = 0;
        Set<String> present = new HashSet<>();
        for (Map.Entry<String, JsonNode> entry : wrapper.path("topicConfigTable").properties()) {
            TopicConfig topic = Json.withDefaults(entry.getValue(), TopicConfig.defaults(entry.getKey()),
                    TopicConfig.class);
            present.add(topic.topicName());
            changes += local.topics().upsert(topic) ? 1 : 0;
        }
        for (String name : local.topics().snapshot().keySet()) {
            if (!present.contains(name) && local.topics().delete(name)) {
                changes++;
            }
        }
        topicsApplied = version;
        return changes;
    }

    /**
     * @param wrapper GET_ALL_SUBSCRIPTIONGROUP_CONFIG body
     * @return how many groups were created, changed or deleted
     */
    int applySubscriptionGroups(JsonNode wrapper) {
        DataVersion version = version(wrapper);
        if (version != null && version.equals(groupsApplied)) {
            return 0;
        }
        int changes = 0;
        Set<String> present = new HashSet<>();
        for (Map.Entry<String, JsonNode> entry : wrapper.path("subscriptionGroupTable").properties()) {
            SubscriptionGroupConfig group = Json.withDefaults(entry.getValue(),
                    SubscriptionGroupConfig.defaults(entry.getKey()), SubscriptionGroupConfig.class);
            present.add(group.groupName());
            if (!local.subscriptionGroups().get(group.groupName()).map(group::equals).orElse(false)) {
                local.subscriptionGroups().upsert(group);
                changes++;
            }
        }
        for (String name : local.subscriptionGroups().wrapper().subscriptionGroupTable().keySet()) {
            if (!present.contains(name) && local.subscriptionGroups().delete(name)) {
                changes++;
            }
        }
        groupsApplied = version;
        return changes;
    }

    /**
     * @param wrapper GET_ALL_CONSUMER_OFFSET body ({@code offsetTable} keyed {@code topic@group})
     * @return how many queue offsets changed
     */
    int applyConsumerOffsets(JsonNode wrapper) {
        int changes = 0;
        for (Map.Entry<String, JsonNode> entry : wrapper.path("offsetTable").properties()) {
            int at = entry.getKey().indexOf('@');
            if (at <= 0 || at == entry.getKey().length() - 1) {
                continue;
            }
            String topic = entry.getKey().substring(0, at);
            String group = entry.getKey().substring(at + 1);
            for (Map.Entry<String, JsonNode> queue : entry.getValue().properties()) {
                int queueId = Integer.parseInt(queue.getKey().trim());
                long offset = queue.getValue().asLong();
                OptionalLong current = local.consumerOffsets().query(group, topic, queueId);
                if (current.isEmpty() || current.getAsLong() != offset) {
                    local.consumerOffsets().commit(group, topic, queueId, offset);
                    changes++;
                }
            }
        }
        return changes;
    }

    /**
     * @param wrapper GET_ALL_DELAY_OFFSET body ({@code offsetTable} keyed by delay level)
     * @return how many levels changed
     */
    int applyDelayOffsets(JsonNode wrapper) {
        int changes = 0;
        for (Map.Entry<String, JsonNode> entry : wrapper.path("offsetTable").properties()) {
            int level = Integer.parseInt(entry.getKey().trim());
            long offset = entry.getValue().asLong();
            OptionalLong current = local.delayOffsets().get(level);
            if (current.isEmpty() || current.getAsLong() != offset) {
                local.delayOffsets().update(level, offset);
                changes++;
            }
        }
        return changes;
    }

    private static DataVersion version(JsonNode wrapper) {
        JsonNode node = wrapper.get("dataVersion");
        return node == null || node.isNull() ? null : Json.mapper().convertValue(node, DataVersion.class);
    }
}
