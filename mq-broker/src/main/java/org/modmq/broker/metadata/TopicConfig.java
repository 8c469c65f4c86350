package org.modmq.broker.metadata;

import java.util.Map;
import java.util.Objects;

/**
 * One topic as the broker stores and registers it; JSON shape of RocketMQ's {@code TopicConfig}
 * ({@code {"attributes":{},"order":false,"perm":6,"readQueueNums":4,"topicFilterType":"SINGLE_TAG",
 * "topicName":"T","topicSysFlag":0,"writeQueueNums":4}}). Immutable.
 */
public record TopicConfig(String topicName, int readQueueNums, int writeQueueNums, int perm,
                          String topicFilterType, int topicSysFlag, boolean order, Map<String, String> attributes) {

    public static final String SINGLE_TAG = "SINGLE_TAG";

    public TopicConfig {
        Objects.requireNonNull(topicName, "topicName");
        topicFilterType = topicFilterType == null ? SINGLE_TAG : topicFilterType;
        attributes = attributes == null ? Map.of() : Map.copyOf(attributes);
    }

    /** A plain topic: the given queue count for reading and writing, no flags. */
    public static TopicConfig of(String topicName, int queueNums, int perm) {
        return new TopicConfig(topicName, queueNums, queueNums, perm, SINGLE_TAG, 0, false, Map.of());
    }

    /** RocketMQ's defaults for a topic created without values: 16 queues, perm 6. */
    public static TopicConfig defaults(String topicName) {
        return of(topicName, 16, Perm.READ_WRITE);
    }

    /** Number of queues that exist for reads or writes: max(read, write). */
    public int queueCount() {
        return Math.max(readQueueNums, writeQueueNums);
    }

    public TopicConfig withPerm(int newPerm) {
        return new TopicConfig(topicName, readQueueNums, writeQueueNums, newPerm, topicFilterType, topicSysFlag,
                order, attributes);
    }
}
