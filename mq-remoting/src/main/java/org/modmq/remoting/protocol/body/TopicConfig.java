package org.modmq.remoting.protocol.body;

import java.util.Collections;
import java.util.HashMap;
import java.util.Map;

/**
 * One topic as a broker stores it ({@code topics.json}) and registers it with the name server; JSON
 * shape of RocketMQ's {@code TopicConfig}: {@code {"attributes":{},"order":false,"perm":6,
 * "readQueueNums":4,"topicFilterType":"SINGLE_TAG","topicName":"T","topicSysFlag":0,"writeQueueNums":4}}.
 * Immutable and thread-safe.
 *
 * <p>The name may be null when decoded: the name server keys topics by the table key and only
 * compares the two when both are present; the broker always builds topics with a name.
 *
 * @param topicName       the topic, null only in a decoded body that left it out
 * @param readQueueNums   number of readable queues
 * @param writeQueueNums  number of writable queues
 * @param perm            permission bits (see {@link Perm})
 * @param topicFilterType {@code SINGLE_TAG} (the default when absent) or {@code MULTI_TAG}
 * @param topicSysFlag    unit flags
 * @param order           whether the topic is ordered
 * @param attributes      topic attributes, empty when absent
 */
public record TopicConfig(String topicName, int readQueueNums, int writeQueueNums, int perm,
                          String topicFilterType, int topicSysFlag, boolean order, Map<String, String> attributes) {

    public static final String SINGLE_TAG = "SINGLE_TAG";

    public TopicConfig {
        topicFilterType = topicFilterType == null ? SINGLE_TAG : topicFilterType;
        // a copy that keeps null values: a body may carry them, and refusing them is the receiver's call
        attributes = attributes == null ? Map.of() : Collections.unmodifiableMap(new HashMap<>(attributes));
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

    /** This topic with other permission bits. */
    public TopicConfig withPerm(int newPerm) {
        return new TopicConfig(topicName, readQueueNums, writeQueueNums, newPerm, topicFilterType, topicSysFlag,
                order, attributes);
    }
}
