package org.modmq.broker.data;

import java.util.Map;
import org.modmq.api.message.MessageProperties;

/** The properties the broker adds to every stored message (docs/protocol.md section 5.1). Stateless. */
final class BrokerProperties {

    static final String DEFAULT_REGION = "DefaultRegion";

    private BrokerProperties() {
    }

    /** Adds CLUSTER, MSG_REGION, TRACE_ON and, when absent, a UNIQ_KEY to {@code properties}; returns it. */
    static Map<String, String> complete(Map<String, String> properties, DataPath path) {
        properties.put(MessageProperties.CLUSTER, path.identity().clusterName());
        properties.putIfAbsent(MessageProperties.MSG_REGION, DEFAULT_REGION);
        properties.putIfAbsent(MessageProperties.TRACE_ON, "true");
        properties.computeIfAbsent(MessageProperties.UNIQ_KEY, k -> path.newUniqueKey());
        return properties;
    }
}
