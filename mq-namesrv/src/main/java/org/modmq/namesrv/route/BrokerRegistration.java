package org.modmq.namesrv.route;

import java.util.List;
import java.util.Objects;
import org.modmq.remoting.protocol.body.TopicConfigSerializeWrapper;

/**
 * One {@code REGISTER_BROKER} request, decoded.
 *
 * @param clusterName        the broker's cluster
 * @param brokerAddr         the address clients dial
 * @param brokerName         the broker set
 * @param brokerId           0 for the master, at least 1 for a slave
 * @param haServerAddr       the broker's HA address, may be null
 * @param zoneName           the zone, may be null
 * @param timeoutMillis      custom expiry, or null for the configured default
 * @param enableActingMaster the header value; null marks a broker older than 5.0
 * @param topicConfig        the topic table (an empty table when the request had no body)
 * @param filterServerList   filter servers, may be null
 * @param channel            the connection the request came over, may be null
 */
public record BrokerRegistration(String clusterName, String brokerAddr, String brokerName, long brokerId,
                                 String haServerAddr, String zoneName, Long timeoutMillis,
                                 Boolean enableActingMaster, TopicConfigSerializeWrapper topicConfig,
                                 List<String> filterServerList, Object channel) {

    public BrokerRegistration {
        Objects.requireNonNull(clusterName, "clusterName");
        Objects.requireNonNull(brokerAddr, "brokerAddr");
        Objects.requireNonNull(brokerName, "brokerName");
        Objects.requireNonNull(topicConfig, "topicConfig");
    }
}
