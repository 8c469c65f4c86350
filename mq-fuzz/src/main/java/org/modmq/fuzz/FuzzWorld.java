package org.modmq.fuzz;

import java.util.List;
import java.util.Objects;

/**
 * The names and numbers a generator prefers, so that many requests hit state the server has (a topic
 * it holds, the broker a name server knows, offsets where records start) instead of missing it every
 * time. Immutable.
 *
 * @param topics      topic names, system topics included
 * @param groups      consumer and producer groups
 * @param brokerNames broker names
 * @param clusters    cluster names
 * @param offsets     CommitLog offsets where records start (0 at least)
 * @param configKeys  keys for {@code UPDATE_BROKER_CONFIG} / {@code UPDATE_NAMESRV_CONFIG} bodies
 */
public record FuzzWorld(List<String> topics, List<String> groups, List<String> brokerNames, List<String> clusters,
                        List<Long> offsets, List<String> configKeys) {

    /** Keys a broker may or may not let change at run time, and ones that never exist. */
    public static final List<String> BROKER_CONFIG_KEYS = List.of("brokerPermission", "autoCreateTopicEnable",
            "autoCreateSubscriptionGroup", "longPollingEnable", "shortPollingTimeMills", "slaveReadEnable",
            "accessMessageInMemoryMaxRatio", "maxMessageSize", "diskMaxUsedSpaceRatio", "fileReservedTime",
            "deleteWhen", "brokerName", "listenPort", "storePathRootDir", "flushDiskType", "brokerRole",
            "messageDelayLevel", "noSuchKey");
    /** Keys a name server may or may not let change at run time. */
    public static final List<String> NAMESRV_CONFIG_KEYS = List.of("orderMessageEnable", "enableAllTopicList",
            "enableTopicList", "listenPort", "kvConfigPath", "scanNotActiveBrokerInterval", "noSuchKey");

    /** Copies the lists. */
    public FuzzWorld {
        topics = List.copyOf(topics);
        groups = List.copyOf(groups);
        brokerNames = List.copyOf(brokerNames);
        clusters = List.copyOf(clusters);
        offsets = List.copyOf(offsets);
        configKeys = List.copyOf(configKeys);
        if (topics.isEmpty() || groups.isEmpty() || brokerNames.isEmpty() || clusters.isEmpty() || offsets.isEmpty()
                || configKeys.isEmpty()) {
            throw new IllegalArgumentException("every list of a fuzz world needs an element");
        }
    }

    /** The names a stock broker and cluster start with, and a few of the fuzzer's own. */
    public static FuzzWorld defaults() {
        return new FuzzWorld(List.of("FuzzTopic", "TBW102", "%RETRY%fuzz-group", "%DLQ%fuzz-group",
                "SCHEDULE_TOPIC_XXXX", "RMQ_SYS_TRANS_HALF_TOPIC", "rmq_sys_wheel_timer", "DefaultCluster"),
                List.of("fuzz-group", "fuzz-producer", "CID_RMQ_SYS_TRANS", "TOOLS_CONSUMER"),
                List.of("broker-a", "fuzz-broker"), List.of("DefaultCluster", "fuzz-cluster"), List.of(0L),
                BROKER_CONFIG_KEYS);
    }

    /** @return this world with other config keys */
    public FuzzWorld withConfigKeys(List<String> keys) {
        return new FuzzWorld(topics, groups, brokerNames, clusters, offsets, Objects.requireNonNull(keys, "keys"));
    }

    /** @return this world with other record offsets */
    public FuzzWorld withOffsets(List<Long> recordOffsets) {
        return new FuzzWorld(topics, groups, brokerNames, clusters, recordOffsets, configKeys);
    }
}
