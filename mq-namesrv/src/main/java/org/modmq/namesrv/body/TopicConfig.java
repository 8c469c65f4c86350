package org.modmq.namesrv.body;

import java.util.Map;

/**
 * One topic of a broker's topic table as the broker registers it.
 *
 * @param attributes      topic attributes, may be null
 * @param order           whether the topic is ordered
 * @param perm            permission bits (see {@link Perm})
 * @param readQueueNums   number of readable queues
 * @param topicFilterType {@code SINGLE_TAG} or {@code MULTI_TAG}
 * @param topicName       the topic
 * @param topicSysFlag    unit flags
 * @param writeQueueNums  number of writable queues
 */
public record TopicConfig(Map<String, String> attributes, boolean order, int perm, int readQueueNums,
                          String topicFilterType, String topicName, int topicSysFlag, int writeQueueNums) {
}
