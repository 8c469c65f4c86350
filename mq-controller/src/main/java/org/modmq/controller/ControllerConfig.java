package org.modmq.controller;

import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Consumer;
import org.modmq.api.config.ConfigException;
import org.modmq.api.config.ConfigValues;
import org.modmq.remoting.netty.RemotingServerKeys;
import org.modmq.remoting.netty.TlsSettings;

/**
 * Settings of one controller peer, read from {@code controller.conf} ({@code key=value}; RocketMQ's
 * {@code ControllerConfig} key names where they exist). Immutable and thread-safe.
 *
 * <table>
 * <caption>Keys</caption>
 * <tr><th>key</th><th>default</th><th>meaning</th></tr>
 * <tr><td>{@code controllerDLegerGroup}</td><td>{@code modmq-controller}</td><td>the group's name; every peer names the same</td></tr>
 * <tr><td>{@code controllerDLegerPeers}</td><td>{@code n0-127.0.0.1:9878}</td><td>{@code id-host:port;...}: every peer's
 *     remoting address, the one brokers ({@code controllerAddr}) and {@code mqadmin -a} dial</td></tr>
 * <tr><td>{@code controllerDLegerSelfId}</td><td>the only peer's id</td><td>which peer this is; required with several</td></tr>
 * <tr><td>{@code controllerRaftPeers}</td><td>each remoting port + 1</td><td>(modmq) {@code id-host:port;...}: where the
 *     peers replicate (Ratis); omitted peers use their remoting host and port + 1</td></tr>
 * <tr><td>{@code controllerStorePath}</td><td>{@code store/controller/<selfId>}</td><td>the Raft log and snapshots</td></tr>
 * <tr><td>{@code enableElectUncleanMaster}</td><td>false</td><td>a replica outside the sync-state set may become master</td></tr>
 * <tr><td>{@code notifyBrokerRoleChanged}</td><td>true</td><td>push each election to the replicas (1008)</td></tr>
 * <tr><td>{@code scanNotActiveBrokerInterval}</td><td>100</td><td>ms between the leader's liveness scans (RocketMQ: 5000);
 *     a closed connection is acted on at once regardless</td></tr>
 * <tr><td>{@code electMasterMaxRetryCount}</td><td>3</td><td>attempts of a controller-triggered election</td></tr>
 * <tr><td>{@code brokerHeartbeatTimeoutMills}</td><td>10000</td><td>(modmq) the timeout of a heartbeat without
 *     {@code heartbeatTimeoutMills}, and of a master this peer never heard from (lease rule)</td></tr>
 * <tr><td>{@code raftElectionTimeoutMin}/{@code Max}</td><td>500/1000</td><td>(modmq) Raft election timeouts, ms</td></tr>
 * <tr><td>{@code controllerSnapshotThreshold}</td><td>1000</td><td>(modmq) applied entries between snapshots</td></tr>
 * <tr><td>{@code controllerWriteTimeoutMills}</td><td>5000</td><td>(modmq) how long a write may take to commit</td></tr>
 * <tr><td>{@code controllerThreadPoolNums}</td><td>4</td><td>request threads (RocketMQ: 16)</td></tr>
 * <tr><td>{@code controllerRequestThreadPoolQueueCapacity}</td><td>10000</td><td>queued requests (RocketMQ: 50000)</td></tr>
 * </table>
 *
 * <p>Also the remoting bounds of {@link RemotingServerKeys}, and in {@code controller.conf} the ACL keys
 * {@code aclEnable} (false) and {@code aclFile} ({@code conf/plain_acl.yml}) of {@link ControllerAcl}. An
 * unknown key is a {@link ConfigException} naming it; a RocketMQ key that modmq ignores is a warning.
 *
 * @param group                       {@code controllerDLegerGroup}
 * @param peers                       every peer, in the order configured
 * @param selfId                      {@code controllerDLegerSelfId}
 * @param storePath                   {@code controllerStorePath}
 * @param enableElectUncleanMaster    {@code enableElectUncleanMaster}
 * @param notifyBrokerRoleChanged     {@code notifyBrokerRoleChanged}
 * @param scanNotActiveBrokerInterval ms, positive
 * @param electMasterMaxRetryCount    positive
 * @param brokerHeartbeatTimeoutMills ms, positive
 * @param raftElectionTimeoutMin      ms, positive
 * @param raftElectionTimeoutMax      ms, at least the min
 * @param snapshotThreshold           entries, positive
 * @param writeTimeoutMills           ms, positive
 * @param threadPoolNums              positive
 * @param queueCapacity               positive
 * @param remoting                    bounds of the remoting port (frames, connections, idle time)
 * @param tls                         TLS of the remoting port and of the notifications to brokers: RocketMQ's
 *                                    {@code tls.*} keys, {@code tlsMode}, {@code useTLS} (see {@link TlsSettings});
 *                                    not in {@link #KEYS}, so a name server's file keeps them for itself
 * @param acl                         ACL 1.0 on the remoting port; not in {@link #KEYS} either, for the same reason
 */
public record ControllerConfig(String group, List<ControllerPeer> peers, String selfId, Path storePath,
                               boolean enableElectUncleanMaster, boolean notifyBrokerRoleChanged,
                               long scanNotActiveBrokerInterval, int electMasterMaxRetryCount,
                               long brokerHeartbeatTimeoutMills, long raftElectionTimeoutMin, long raftElectionTimeoutMax,
                               long snapshotThreshold, long writeTimeoutMills, int threadPoolNums, int queueCapacity,
                               RemotingServerKeys.Limits remoting, TlsSettings tls, ControllerAcl acl) {

    /** The remoting port of a controller alone (RocketMQ's 9878). */
    public static final int DEFAULT_PORT = 9878;

    /** Keys this record reads. */
    public static final Set<String> KEYS = keys();

    /** RocketMQ controller keys that are accepted and ignored, with a warning. */
    public static final Set<String> IGNORED_ROCKETMQ_KEYS = Set.of("rocketmqHome", "configStorePath", "controllerType",
            "mappedFileSize", "isProcessReadEvent", "processReadEvent", "scanInactiveMasterInterval",
            "metricsExporterType", "metricsGrpcExporterTarget", "metricsGrpcExporterHeader",
            "metricGrpcExporterTimeOutInMills", "metricGrpcExporterIntervalInMills",
            "metricLoggingExporterIntervalInMills", "metricsPromExporterPort", "metricsPromExporterHost", "metricsLabel",
            "metricsInDelta", "configBlackList", "jRaftGroupId", "jRaftServerId", "jRaftAddress", "jRaftInitConf",
            "jRaftControllerRPCAddr", "jRaftElectionTimeoutMs", "jRaftScanWaitTimeoutMs", "jRaftSnapshotIntervalSecs",
            "listenPort", "serverWorkerThreads", "serverCallbackExecutorThreads", "serverSelectorThreads",
            "serverOnewaySemaphoreValue", "serverAsyncSemaphoreValue",
            "serverSocketSndBufSize", "serverSocketRcvBufSize", "serverPooledByteBufAllocatorEnable",
            "useEpollNativeSelector");

    private static Set<String> keys() {
        Set<String> keys = new TreeSet<>(Set.of("controllerDLegerGroup", "controllerDLegerPeers",
                "controllerDLegerSelfId", "controllerRaftPeers", "controllerStorePath", "enableElectUncleanMaster",
                "notifyBrokerRoleChanged", "scanNotActiveBrokerInterval", "electMasterMaxRetryCount",
                "brokerHeartbeatTimeoutMills", "raftElectionTimeoutMin", "raftElectionTimeoutMax",
                "controllerSnapshotThreshold", "controllerWriteTimeoutMills", "controllerThreadPoolNums",
                "controllerRequestThreadPoolQueueCapacity"));
        keys.addAll(RemotingServerKeys.KEYS);
        return Set.copyOf(keys);
    }

    /** Validates every value. */
    public ControllerConfig {
        Objects.requireNonNull(group, "group");
        Objects.requireNonNull(remoting, "remoting");
        peers = List.copyOf(peers);
        Objects.requireNonNull(selfId, "selfId");
        Objects.requireNonNull(storePath, "storePath");
        Objects.requireNonNull(tls, "tls");
        Objects.requireNonNull(acl, "acl");
        if (peers.stream().noneMatch(p -> p.id().equals(selfId))) {
            throw new ConfigException("controllerDLegerSelfId=" + selfId + " is not among the ids of controllerDLegerPeers "
                    + peers.stream().map(ControllerPeer::id).toList());
        }
        positive("scanNotActiveBrokerInterval", scanNotActiveBrokerInterval);
        positive("electMasterMaxRetryCount", electMasterMaxRetryCount);
        positive("brokerHeartbeatTimeoutMills", brokerHeartbeatTimeoutMills);
        positive("raftElectionTimeoutMin", raftElectionTimeoutMin);
        positive("controllerSnapshotThreshold", snapshotThreshold);
        positive("controllerWriteTimeoutMills", writeTimeoutMills);
        positive("controllerThreadPoolNums", threadPoolNums);
        positive("controllerRequestThreadPoolQueueCapacity", queueCapacity);
        if (raftElectionTimeoutMax < raftElectionTimeoutMin) {
            throw new ConfigException("raftElectionTimeoutMax=" + raftElectionTimeoutMax + " must be >= raftElectionTimeoutMin="
                    + raftElectionTimeoutMin);
        }
    }

    /** A controller alone on {@code 127.0.0.1:9878}, every other key at its default. */
    public static ControllerConfig defaults() {
        return parse(Map.of(), warning -> { });
    }

    /**
     * Parses settings. Relative paths stay relative (to the working directory).
     *
     * @param values   key to value
     * @param warnings receives one message per ignored RocketMQ key
     * @throws ConfigException naming the first unknown key or malformed value
     */
    public static ControllerConfig parse(Map<String, String> values, Consumer<String> warnings) {
        Objects.requireNonNull(values, "values");
        Objects.requireNonNull(warnings, "warnings");
        for (String key : new TreeMap<>(values).keySet()) {
            if (IGNORED_ROCKETMQ_KEYS.contains(key)) {
                warnings.accept("controller key '" + key + "' is a RocketMQ setting that modmq ignores");
            } else if (!KEYS.contains(key) && !TlsSettings.KEYS.contains(key) && !ControllerAcl.KEYS.contains(key)) {
                throw new ConfigException("unknown controller key '" + key + "'; known keys: " + new TreeSet<>(KEYS));
            }
        }
        ConfigValues config = ConfigValues.of(values);
        Map<String, String> remoting = peerList("controllerDLegerPeers",
                config.string("controllerDLegerPeers", "n0-127.0.0.1:" + DEFAULT_PORT));
        Map<String, String> raft = peerList("controllerRaftPeers", config.string("controllerRaftPeers", ""));
        for (String id : raft.keySet()) {
            if (!remoting.containsKey(id)) {
                throw new ConfigException("controllerRaftPeers names '" + id + "', which is not in controllerDLegerPeers "
                        + remoting.keySet());
            }
        }
        List<ControllerPeer> peers = new ArrayList<>();
        remoting.forEach((id, address) -> peers.add(new ControllerPeer(id, address,
                raft.getOrDefault(id, plusOne(address)))));
        String selfId = config.string("controllerDLegerSelfId", peers.size() == 1 ? peers.get(0).id() : "");
        if (selfId.isBlank()) {
            throw new ConfigException("controllerDLegerSelfId is required with " + peers.size()
                    + " controllerDLegerPeers; one of " + remoting.keySet());
        }
        return new ControllerConfig(
                config.string("controllerDLegerGroup", "modmq-controller"),
                peers,
                selfId,
                Path.of(config.string("controllerStorePath", "store/controller/" + selfId)),
                config.bool("enableElectUncleanMaster", false),
                config.bool("notifyBrokerRoleChanged", true),
                config.longValue("scanNotActiveBrokerInterval", 100),
                config.intValue("electMasterMaxRetryCount", 3),
                config.longValue("brokerHeartbeatTimeoutMills", 10_000),
                config.longValue("raftElectionTimeoutMin", 500),
                config.longValue("raftElectionTimeoutMax", 1000),
                config.longValue("controllerSnapshotThreshold", 1000),
                config.longValue("controllerWriteTimeoutMills", 5000),
                config.intValue("controllerThreadPoolNums", 4),
                config.intValue("controllerRequestThreadPoolQueueCapacity", 10_000),
                RemotingServerKeys.parse(config::get, "controller configuration"),
                TlsSettings.resolve(tlsKeys(values), System.getProperties()),
                ControllerAcl.parse(config));
    }

    private static Map<String, String> tlsKeys(Map<String, String> values) {
        Map<String, String> keys = new TreeMap<>(values);
        keys.keySet().retainAll(TlsSettings.KEYS);
        return keys;
    }

    /**
     * Reads a {@code controller.conf} file ({@link Properties} syntax).
     *
     * @throws ConfigException if the file cannot be read or holds an unknown key or a bad value; the
     *                         message names the file
     */
    public static ControllerConfig load(Path file, Consumer<String> warnings) {
        Objects.requireNonNull(file, "file");
        Properties properties = new Properties();
        try (Reader reader = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            properties.load(reader);
        } catch (IOException e) {
            throw new ConfigException("cannot read " + file + ": " + e);
        }
        Map<String, String> values = new LinkedHashMap<>();
        properties.stringPropertyNames().forEach(name -> values.put(name, properties.getProperty(name)));
        try {
            return parse(values, warnings);
        } catch (ConfigException e) {
            throw new ConfigException(file + ": " + e.getMessage());
        }
    }

    /** @return this peer */
    public ControllerPeer self() {
        return peers.stream().filter(p -> p.id().equals(selfId)).findFirst().orElseThrow();
    }

    /** @return a copy whose relative store path is resolved against {@code base} */
    public ControllerConfig withStoreBase(Path base) {
        return new ControllerConfig(group, peers, selfId, base.resolve(storePath), enableElectUncleanMaster,
                notifyBrokerRoleChanged, scanNotActiveBrokerInterval, electMasterMaxRetryCount, brokerHeartbeatTimeoutMills,
                raftElectionTimeoutMin, raftElectionTimeoutMax, snapshotThreshold, writeTimeoutMills, threadPoolNums,
                queueCapacity, remoting, tls, acl);
    }

    /** @return a copy with other TLS settings (a controller beside a name server or broker takes theirs) */
    public ControllerConfig withTls(TlsSettings settings) {
        return new ControllerConfig(group, peers, selfId, storePath, enableElectUncleanMaster, notifyBrokerRoleChanged,
                scanNotActiveBrokerInterval, electMasterMaxRetryCount, brokerHeartbeatTimeoutMills, raftElectionTimeoutMin,
                raftElectionTimeoutMax, snapshotThreshold, writeTimeoutMills, threadPoolNums, queueCapacity, remoting,
                settings, acl);
    }

    /**
     * @return a copy with other ACL settings: a controller beside a name server follows the name server's
     *     {@code aclEnable}/{@code aclFile}, one in {@code bin/modmq} the broker's
     */
    public ControllerConfig withAcl(ControllerAcl settings) {
        return new ControllerConfig(group, peers, selfId, storePath, enableElectUncleanMaster, notifyBrokerRoleChanged,
                scanNotActiveBrokerInterval, electMasterMaxRetryCount, brokerHeartbeatTimeoutMills, raftElectionTimeoutMin,
                raftElectionTimeoutMax, snapshotThreshold, writeTimeoutMills, threadPoolNums, queueCapacity, remoting,
                tls, settings);
    }

    /** The settings as {@code key=value} pairs, sorted by key, as {@code GET_CONTROLLER_CONFIG} lists them. */
    public Map<String, String> asProperties() {
        Map<String, String> map = new TreeMap<>();
        map.put("controllerDLegerGroup", group);
        map.put("controllerDLegerPeers", String.join(";", peers.stream().map(p -> p.id() + "-" + p.remotingAddress()).toList()));
        map.put("controllerDLegerSelfId", selfId);
        map.put("controllerRaftPeers", String.join(";", peers.stream().map(p -> p.id() + "-" + p.raftAddress()).toList()));
        map.put("controllerStorePath", storePath.toString());
        map.put("enableElectUncleanMaster", Boolean.toString(enableElectUncleanMaster));
        map.put("notifyBrokerRoleChanged", Boolean.toString(notifyBrokerRoleChanged));
        map.put("scanNotActiveBrokerInterval", Long.toString(scanNotActiveBrokerInterval));
        map.put("electMasterMaxRetryCount", Integer.toString(electMasterMaxRetryCount));
        map.put("brokerHeartbeatTimeoutMills", Long.toString(brokerHeartbeatTimeoutMills));
        map.put("raftElectionTimeoutMin", Long.toString(raftElectionTimeoutMin));
        map.put("raftElectionTimeoutMax", Long.toString(raftElectionTimeoutMax));
        map.put("controllerSnapshotThreshold", Long.toString(snapshotThreshold));
        map.put("controllerWriteTimeoutMills", Long.toString(writeTimeoutMills));
        map.put("controllerThreadPoolNums", Integer.toString(threadPoolNums));
        map.put("controllerRequestThreadPoolQueueCapacity", Integer.toString(queueCapacity));
        map.putAll(remoting.asProperties());
        map.putAll(acl.asProperties());
        return map;
    }

    private static Map<String, String> peerList(String key, String text) {
        Map<String, String> peers = new LinkedHashMap<>();
        for (String entry : text.split(";")) {
            String trimmed = entry.trim();
            if (trimmed.isEmpty()) {
                continue;
            }
            int dash = trimmed.indexOf('-');
            if (dash <= 0 || dash == trimmed.length() - 1) {
                throw new ConfigException(key + ": '" + trimmed + "' is not id-host:port");
            }
            String id = trimmed.substring(0, dash);
            String address = trimmed.substring(dash + 1);
            checkAddress(key, id, address);
            if (peers.put(id, address) != null) {
                throw new ConfigException(key + ": id '" + id + "' appears twice");
            }
        }
        if (key.equals("controllerDLegerPeers") && peers.isEmpty()) {
            throw new ConfigException("controllerDLegerPeers is empty; expected id-host:port;...");
        }
        return peers;
    }

    private static void checkAddress(String key, String id, String address) {
        int colon = address.lastIndexOf(':');
        if (colon <= 0) {
            throw new ConfigException(key + ": the address of '" + id + "' is not host:port: " + address);
        }
        try {
            int port = Integer.parseInt(address.substring(colon + 1));
            if (port < 1 || port > 65535) {
                throw new ConfigException(key + ": the port of '" + id + "' is not in 1..65535: " + address);
            }
        } catch (NumberFormatException e) {
            throw new ConfigException(key + ": the port of '" + id + "' is not a number: " + address);
        }
    }

    private static String plusOne(String address) {
        int colon = address.lastIndexOf(':');
        int port = Integer.parseInt(address.substring(colon + 1));
        if (port == 65535) {
            throw new ConfigException("controllerRaftPeers: no default Raft port above " + address + "; set controllerRaftPeers");
        }
        return address.substring(0, colon) + ":" + (port + 1);
    }

    private static void positive(String key, long value) {
        if (value <= 0) {
            throw new ConfigException(key + "=" + value + " must be > 0");
        }
    }
}
