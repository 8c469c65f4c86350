package org.modmq.broker.admin;

import com.fasterxml.jackson.databind.annotation.JsonSerialize;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;

/**
 * JSON bodies of the admin answers, in the shapes of docs/protocol.md section 4.2. Tables keyed by a
 * {@code MessageQueue} are written in fastjson's form, the queue's JSON object as the key
 * ({@link QueueKeyedMapSerializer}). All records are immutable.
 */
public final class AdminBodies {

    private AdminBodies() {
    }

    /** RocketMQ's {@code MessageQueue}. */
    public record MessageQueue(String brokerName, int queueId, String topic) {

        public MessageQueue {
            Objects.requireNonNull(brokerName, "brokerName");
            Objects.requireNonNull(topic, "topic");
        }

    }

    /** {@code KVTable}: {@code {"table":{"k":"v"}}}. */
    public record KVTable(Map<String, String> table) {

        public KVTable {
            table = Map.copyOf(table);
        }
    }

    /** {@code TopicList}: {@code {"brokerAddr":"…","topicList":[…]}}; brokerAddr may be null (omitted). */
    public record TopicList(Set<String> topicList, String brokerAddr) {

        public TopicList {
            topicList = Collections.unmodifiableSortedSet(new TreeSet<>(topicList));
        }
    }

    /** {@code GroupList}: {@code {"groupList":[…]}}. */
    public record GroupList(Set<String> groupList) {

        public GroupList {
            groupList = Collections.unmodifiableSortedSet(new TreeSet<>(groupList));
        }
    }

    /** One queue of a {@link TopicStatsTable}. */
    public record TopicOffset(long lastUpdateTimestamp, long maxOffset, long minOffset) {
    }

    /** {@code TopicStatsTable}: queue → bounds, plus the topic's put rate. */
    public record TopicStatsTable(@JsonSerialize(using = QueueKeyedMapSerializer.class)
                                  Map<MessageQueue, TopicOffset> offsetTable, double topicPutTps) {

        public TopicStatsTable {
            offsetTable = Map.copyOf(offsetTable);
        }
    }

    /** One queue of a {@link ConsumeStats}: {@code OffsetWrapper}. */
    public record OffsetWrapper(long brokerOffset, long consumerOffset, long lastTimestamp, long pullOffset) {
    }

    /** {@code ConsumeStats}: queue → progress, plus the group's consume rate. */
    public record ConsumeStats(double consumeTps, @JsonSerialize(using = QueueKeyedMapSerializer.class)
                               Map<MessageQueue, OffsetWrapper> offsetTable) {

        public ConsumeStats {
            offsetTable = Map.copyOf(offsetTable);
        }

        /** Messages not yet consumed, summed over the queues (broker offset − consumer offset). */
        public long computeDiff() {
            return offsetTable.values().stream().mapToLong(o -> o.brokerOffset() - o.consumerOffset()).sum();
        }
    }

    /** {@code ConsumeStatsList} of GET_BROKER_CONSUME_STATS: per group, the stats of each topic. */
    public record ConsumeStatsList(String brokerAddr, List<Map<String, List<ConsumeStats>>> consumeStatsList,
                                   long totalDiff) {

        public ConsumeStatsList {
            consumeStatsList = List.copyOf(consumeStatsList);
        }
    }
}
