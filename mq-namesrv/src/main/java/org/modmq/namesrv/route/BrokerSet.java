package org.modmq.namesrv.route;

import java.util.TreeMap;
import org.modmq.namesrv.body.BrokerData;

/** Mutable broker-set entry of the route state. Not thread-safe: guarded by the route table's lock. */
final class BrokerSet {

    private final String cluster;
    private final String brokerName;
    private final TreeMap<Long, String> brokerAddrs = new TreeMap<>();
    private String zoneName;
    private boolean enableActingMaster;

    BrokerSet(String cluster, String brokerName) {
        this.cluster = cluster;
        this.brokerName = brokerName;
    }

    String cluster() {
        return cluster;
    }

    String brokerName() {
        return brokerName;
    }

    /** The live id-to-address map; callers mutate it under the write lock. */
    TreeMap<Long, String> addrs() {
        return brokerAddrs;
    }

    boolean enableActingMaster() {
        return enableActingMaster;
    }

    void update(String zone, boolean actingMaster) {
        this.zoneName = zone;
        this.enableActingMaster = actingMaster;
    }

    BrokerData snapshot() {
        return new BrokerData(new TreeMap<>(brokerAddrs),
                brokerName, cluster, enableActingMaster, zoneName);
    }
}
