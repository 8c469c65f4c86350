package org.modmq.namesrv.body;

import java.util.Map;
import java.util.Set;

/**
 * Answer of {@code GET_BROKER_CLUSTER_INFO}.
 *
 * @param brokerAddrTable  broker name to broker set
 * @param clusterAddrTable cluster name to broker names
 */
public record ClusterInfo(Map<String, BrokerData> brokerAddrTable, Map<String, Set<String>> clusterAddrTable) {
}
