package org.modmq.controller.body;

import java.util.SortedMap;
import java.util.TreeMap;

/**
 * RocketMQ's {@code BrokerMemberGroup}: every registered replica of a broker set,
 * {@code {"brokerAddrs":{"1":"127.0.0.1:10911"},"brokerName":"broker-a","cluster":"DefaultCluster"}}.
 *
 * @param cluster     the cluster name
 * @param brokerName  the broker set
 * @param brokerAddrs controller broker id to the replica's address
 */
public record BrokerMemberGroup(String cluster, String brokerName, SortedMap<Long, String> brokerAddrs) {

    /** Copies the addresses into a sorted map. */
    public BrokerMemberGroup {
        brokerAddrs = brokerAddrs == null ? new TreeMap<>() : new TreeMap<>(brokerAddrs);
    }
}
