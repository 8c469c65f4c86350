package org.modmq.namesrv.body;

import java.util.Set;

/**
 * A list of topic names.
 *
 * @param brokerAddr some broker address (system topic list only), may be null
 * @param topicList  the topics
 */
public record TopicList(String brokerAddr, Set<String> topicList) {
}
