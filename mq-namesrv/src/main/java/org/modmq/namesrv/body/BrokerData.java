package org.modmq.namesrv.body;

import java.util.Map;

/**
 * One broker set (a master and its slaves) as clients see it.
 *
 * @param brokerAddrs        broker id (0 = master) to {@code ip:port}
 * @param brokerName         the broker set
 * @param cluster            its cluster
 * @param enableActingMaster whether slave-acting-master is on
 * @param zoneName           the zone the broker reports, may be null
 */
public record BrokerData(Map<Long, String> brokerAddrs, String brokerName, String cluster,
                         boolean enableActingMaster, String zoneName) {
}
