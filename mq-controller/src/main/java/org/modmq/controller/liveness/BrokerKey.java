package org.modmq.controller.liveness;

import java.util.Objects;

/**
 * Which broker a heartbeat is from (RocketMQ's {@code BrokerIdentityInfo}).
 *
 * @param clusterName its cluster
 * @param brokerName  its broker set
 * @param brokerId    its controller broker id
 */
public record BrokerKey(String clusterName, String brokerName, long brokerId) {

    public BrokerKey {
        Objects.requireNonNull(clusterName, "clusterName");
        Objects.requireNonNull(brokerName, "brokerName");
    }
}
