package org.modmq.interop;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The broker keys both implementations share in these tests: one broker set {@value #BROKER_NAME} on
 * loopback, small CommitLog segments, asynchronous flushing. Stateless.
 */
final class BrokerSettings {

    static final String CLUSTER = "InteropCluster";
    static final String BROKER_NAME = "broker-x";
    /** 1 MiB segments: a few thousand messages cross several file boundaries. */
    static final int COMMIT_LOG_FILE_SIZE = 1024 * 1024;

    private BrokerSettings() {
    }

    /**
     * The common keys for a broker listening on {@code listenPort} (HA on {@code haListenPort}) with its
     * store under {@code storeRoot}, registering with {@code namesrvAddr}.
     *
     * @param role {@code ASYNC_MASTER}, {@code SYNC_MASTER} or {@code SLAVE}; the id is 0 for a master, 1 for the slave
     */
    static Map<String, String> common(String role, int listenPort, int haListenPort, String namesrvAddr, Path storeRoot) {
        Map<String, String> settings = new LinkedHashMap<>();
        settings.put("brokerClusterName", CLUSTER);
        settings.put("brokerName", BROKER_NAME);
        settings.put("brokerId", "SLAVE".equals(role) ? "1" : "0");
        settings.put("brokerRole", role);
        settings.put("brokerIP1", "127.0.0.1");
        settings.put("brokerIP2", "127.0.0.1");
        settings.put("listenPort", Integer.toString(listenPort));
        settings.put("haListenPort", Integer.toString(haListenPort));
        settings.put("namesrvAddr", namesrvAddr);
        settings.put("storePathRootDir", storeRoot.toString());
        settings.put("flushDiskType", "ASYNC_FLUSH");
        settings.put("mappedFileSizeCommitLog", Integer.toString(COMMIT_LOG_FILE_SIZE));
        settings.put("autoCreateTopicEnable", "true");
        settings.put("autoCreateSubscriptionGroup", "true");
        return settings;
    }
}
