package org.modmq.namesrv.route;

import java.util.Objects;

/**
 * Identifies one registered broker process: its cluster and its address.
 *
 * @param clusterName the cluster
 * @param brokerAddr  {@code ip:port}
 */
public record BrokerAddrKey(String clusterName, String brokerAddr) {

    public BrokerAddrKey {
        Objects.requireNonNull(clusterName, "clusterName");
        Objects.requireNonNull(brokerAddr, "brokerAddr");
    }
}
