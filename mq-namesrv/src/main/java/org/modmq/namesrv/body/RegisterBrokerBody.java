package org.modmq.namesrv.body;

import java.util.List;

/**
 * Body of {@code REGISTER_BROKER} from brokers of version 37 and later.
 *
 * @param filterServerList            legacy filter servers, normally empty, may be null
 * @param topicConfigSerializeWrapper the broker's topic table, may be null
 */
public record RegisterBrokerBody(List<String> filterServerList,
                                 TopicConfigSerializeWrapper topicConfigSerializeWrapper) {
}
