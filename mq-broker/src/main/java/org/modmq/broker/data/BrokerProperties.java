package org.modmq.broker.data;

import java.util.Map;
import java.util.function.Supplier;
import org.modmq.api.message.MessageProperties;

/** The properties the broker adds to every stored message (docs/protocol.md section 5.1). Stateless. */
final class BrokerProperties {

    static final String DEFAULT_REGION = "DefaultRegion";

    private BrokerProperties() {
    }

    /** Adds CLUSTER, MSG_REGION, TRACE_ON and, when absent, a UNIQ_KEY to {@code properties}; returns it. */
    static Map<String, String> complete(Map<String, String> properties, DataPath path) {
        return complete(properties, path.identity().clusterName(), path::newUniqueKey);
    }

    /** As {@link #complete(Map, DataPath)}, with the cluster name and the source of unique keys given. */
    static Map<String, String> complete(Map<String, String> properties, String cluster, Supplier<String> uniqueKey) {
        properties.put(MessageProperties.CLUSTER, cluster);
        properties.putIfAbsent(MessageProperties.MSG_REGION, DEFAULT_REGION);
        properties.putIfAbsent(MessageProperties.TRACE_ON, "true");
        properties.computeIfAbsent(MessageProperties.UNIQ_KEY, k -> uniqueKey.get());
        return properties;
    }
}
