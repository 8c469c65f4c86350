package org.modmq.broker.admin;

import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import org.modmq.remoting.protocol.Json;

/**
 * JSON bodies of the admin answers, in the shapes of protocol notes 4.2. Tables keyed by a
 * {@code MessageQueue} use, as key, the string holding the queue's JSON
 * ({@code "{\"brokerName\":\"b\",\"queueId\":0,\"topic\":\"t\"}"}), which the stock client accepts
 * (notes 4.1). All records are immutable.
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

        /** The queue's JSON as a string, used as a map key. */
        public String jsonKey() {
            return new String(Json.encode(this), StandardCharsets.UTF_8);
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

    /** {@code TopicStatsTable}: queue key → bounds, plus the topic's put rate. */
    public record TopicStatsTable(Map<String, TopicOffset> offsetTable, double topicPutTps) {

        public TopicStatsTable {
            offsetTable = Map.copyOf(offsetTable);
        }
    }

    /** One queue of a {@link ConsumeStats}: {@code OffsetWrapper}. */
    public record OffsetWrapper(long brokerOffset, long consumerOffset, long lastTimestamp, long pullOffset) {
    }

    /** {@code ConsumeStats}: queue key → progress, plus the group's consume rate. */
    public record ConsumeStats(double consumeTps, Map<String, OffsetWrapper> offsetTable) {

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
