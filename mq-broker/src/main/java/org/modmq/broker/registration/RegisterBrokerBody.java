package org.modmq.broker.registration;

import java.util.List;
import org.modmq.broker.metadata.TopicConfigSerializeWrapper;

/**
 * Body of REGISTER_BROKER (103), JSON shape of RocketMQ's {@code RegisterBrokerBody}:
 * {@code {"filterServerList":[],"topicConfigSerializeWrapper":{...AndMapping form...}}}. Immutable.
 */
public record RegisterBrokerBody(List<String> filterServerList, TopicConfigSerializeWrapper topicConfigSerializeWrapper) {

    public RegisterBrokerBody {
        filterServerList = filterServerList == null ? List.of() : List.copyOf(filterServerList);
    }
}
