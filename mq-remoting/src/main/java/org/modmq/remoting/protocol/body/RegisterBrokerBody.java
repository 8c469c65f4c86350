package org.modmq.remoting.protocol.body;

import java.util.List;

/**
 * Body of REGISTER_BROKER (103) from brokers of version 3.0.11 (remoting version 37) and later, in
 * the JSON shape of RocketMQ's {@code RegisterBrokerBody}:
 * {@code {"filterServerList":[],"topicConfigSerializeWrapper":{...}}}, the wrapper in its "AndMapping"
 * form. Immutable when built with immutable values, which the
 * broker does; a decoded one holds what the body held.
 *
 * <p>Both fields stay null when absent: to the name server a missing filter-server list leaves the
 * broker's filter servers as they are, while an empty one clears them.
 *
 * @param filterServerList            legacy filter servers, normally empty, may be null
 * @param topicConfigSerializeWrapper the broker's topic table, may be null
 */
public record RegisterBrokerBody(List<String> filterServerList,
                                 TopicConfigSerializeWrapper topicConfigSerializeWrapper) {
}
