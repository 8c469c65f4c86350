package org.modmq.namesrv;

import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Consumer;
import org.modmq.api.config.ConfigException;
import org.modmq.api.config.ConfigValues;
import org.modmq.namesrv.processor.RequestLimits;
import org.modmq.remoting.netty.RemotingServerKeys;
import org.modmq.remoting.netty.TlsSettings;

/**
 * Settings of the name server, read from {@code namesrv.conf} ({@code key=value} lines, RocketMQ's
 * key names). Immutable and thread-safe.
 *
 * <table>
 * <caption>Keys</caption>
 * <tr><th>key</th><th>default</th><th>meaning</th></tr>
 * <tr><td>{@code listenPort}</td><td>9876</td><td>port to bind; 0 picks an ephemeral port</td></tr>
 * <tr><td>{@code bindAddress}</td><td>127.0.0.1</td><td>address to bind (RocketMQ's server key;
 *     its default is 0.0.0.0, ours is loopback)</td></tr>
 * <tr><td>{@code scanNotActiveBrokerInterval}</td><td>10000</td><td>ms between expiry scans</td></tr>
 * <tr><td>{@code brokerChannelExpiredTime}</td><td>120000</td><td>ms of silence after which a broker
 *     that names no {@code heartbeatTimeoutMillis} expires (modmq key; a constant in RocketMQ)</td></tr>
 * <tr><td>{@code orderMessageEnable}</td><td>false</td><td>add {@code orderTopicConf} to routes</td></tr>
 * <tr><td>{@code enableAllTopicList}</td><td>true</td><td>answer {@code GET_ALL_TOPIC_LIST_FROM_NAMESERVER}</td></tr>
 * <tr><td>{@code enableTopicList}</td><td>true</td><td>answer the per-cluster and unit topic lists</td></tr>
 * <tr><td>{@code deleteTopicWithBrokerRegistration}</td><td>false</td><td>a full registration drops
 *     the broker's unlisted topics</td></tr>
 * <tr><td>{@code kvConfigPath}</td><td>(none)</td><td>file for the KV configuration; none keeps it in
 *     memory (RocketMQ defaults to {@code ~/namesrv/kvConfig.json})</td></tr>
 * <tr><td>{@code aclEnable}</td><td>false</td><td>check every request against the ACL file (RocketMQ's
 *     broker key; RocketMQ's name server has no ACL 1.0)</td></tr>
 * <tr><td>{@code aclFile}</td><td>{@code conf/plain_acl.yml}</td><td>the ACL 1.0 rules, re-read when
 *     they change</td></tr>
 * <tr><td>{@code tlsMode}, {@code tls.*}</td><td>permissive</td><td>TLS of the port, RocketMQ's keys (see
 *     {@link TlsSettings}); system properties and {@code tls.config.file} are read too</td></tr>
 * </table>
 *
 * <p>Also the remoting bounds of {@link RemotingServerKeys} and the request bounds of {@link RequestLimits}.
 *
 * <p>An unknown key is a {@link ConfigException} naming it; a RocketMQ key that modmq ignores is
 * reported as a warning.
 *
 * @param listenPort                        port to bind, 0..65535
 * @param bindAddress                       address to bind
 * @param scanNotActiveBrokerInterval       ms between expiry scans, positive
 * @param brokerChannelExpiredTime          default broker expiry in ms, positive
 * @param orderMessageEnable                whether routes carry {@code orderTopicConf}
 * @param enableAllTopicList                whether the full topic list is served
 * @param enableTopicList                   whether cluster and unit topic lists are served
 * @param deleteTopicWithBrokerRegistration whether full registrations delete unlisted topics
 * @param kvConfigPath                      KV file, or null for memory only
 * @param aclEnable                         whether requests are checked against {@code aclFile}
 * @param aclFile                           the {@code plain_acl.yml} read when {@code aclEnable} is true
 * @param remoting                          bounds of the remoting port (frames, connections, idle time)
 * @param limits                            what one write request may carry
 * @param tls                               TLS of the port
 */
public record NamesrvConfig(int listenPort, String bindAddress, long scanNotActiveBrokerInterval,
                            long brokerChannelExpiredTime, boolean orderMessageEnable, boolean enableAllTopicList,
                            boolean enableTopicList, boolean deleteTopicWithBrokerRegistration, Path kvConfigPath,
                            boolean aclEnable, Path aclFile, RemotingServerKeys.Limits remoting,
                            RequestLimits limits, TlsSettings tls) {

    /** Keys this record reads. */
    public static final Set<String> KEYS = keys();

    /** Where {@code aclFile} points by default, relative to the working directory (the distribution's). */
    public static final String DEFAULT_ACL_FILE = "conf/plain_acl.yml";

    /** RocketMQ name-server keys that are accepted and ignored, with a warning. */
    public static final Set<String> IGNORED_ROCKETMQ_KEYS = Set.of("rocketmqHome", "configStorePath",
            "productEnvName", "clusterTest", "unRegisterBrokerQueueCapacity", "supportActingMaster",
            "notifyMinBrokerIdChanged", "enableControllerInNamesrv", "needWaitForService", "waitSecondsForService",
            "configBlackList", "returnOrderTopicConfigToBroker", "clientRequestThreadPoolNums",
            "defaultThreadPoolNums", "clientRequestThreadPoolQueueCapacity", "defaultThreadPoolQueueCapacity",
            "serverWorkerThreads", "serverCallbackExecutorThreads", "serverSelectorThreads",
            "serverOnewaySemaphoreValue", "serverAsyncSemaphoreValue",
            "serverSocketSndBufSize", "serverSocketRcvBufSize", "writeBufferHighWaterMark", "writeBufferLowWaterMark",
            "serverSocketBacklog", "serverPooledByteBufAllocatorEnable", "useEpollNativeSelector",
            "enableShutdownGracefully", "shutdownWaitTimeSeconds",
            // Served by bin/mqnamesrv's launcher, which takes them out first; a bare NamesrvStartup exports nothing.
            "metricsExporterType", "metricsPromExporterHost", "metricsPromExporterPort");

    private static Set<String> keys() {
        Set<String> keys = new TreeSet<>(Set.of("listenPort", "bindAddress", "scanNotActiveBrokerInterval",
                "brokerChannelExpiredTime", "orderMessageEnable", "enableAllTopicList", "enableTopicList",
                "deleteTopicWithBrokerRegistration", "kvConfigPath", "aclEnable", "aclFile"));
        keys.addAll(RemotingServerKeys.KEYS);
        keys.addAll(RequestLimits.KEYS);
        return Set.copyOf(keys);
    }

    /** Validates every value. */
    public NamesrvConfig {
        Objects.requireNonNull(bindAddress, "bindAddress");
        Objects.requireNonNull(aclFile, "aclFile");
        Objects.requireNonNull(remoting, "remoting");
        Objects.requireNonNull(limits, "limits");
        Objects.requireNonNull(tls, "tls");
        if (listenPort < 0 || listenPort > 65535) {
            throw new ConfigException("listenPort=" + listenPort + " is not in 0..65535");
        }
        if (bindAddress.isBlank()) {
            throw new ConfigException("bindAddress is blank");
        }
        if (scanNotActiveBrokerInterval <= 0) {
            throw new ConfigException("scanNotActiveBrokerInterval=" + scanNotActiveBrokerInterval + " must be > 0");
        }
        if (brokerChannelExpiredTime <= 0) {
            throw new ConfigException("brokerChannelExpiredTime=" + brokerChannelExpiredTime + " must be > 0");
        }
    }

    /** Every default: port 9876 on 127.0.0.1, scan every 10 s, brokers expire after 120 s. */
    public static NamesrvConfig defaults() {
        return parse(Map.of(), warning -> { });
    }

    /**
     * Parses settings.
     *
     * @param values   key to value
     * @param warnings receives one message per ignored RocketMQ key
     * @throws ConfigException naming the first unknown key or malformed value
     */
    public static NamesrvConfig parse(Map<String, String> values, Consumer<String> warnings) {
        Objects.requireNonNull(values, "values");
        Objects.requireNonNull(warnings, "warnings");
        for (String key : new TreeMap<>(values).keySet()) {
            if (IGNORED_ROCKETMQ_KEYS.contains(key)) {
                warnings.accept("namesrv key '" + key + "' is a RocketMQ setting that modmq ignores");
            } else if (!KEYS.contains(key) && !TlsSettings.KEYS.contains(key)) {
                throw new ConfigException("unknown namesrv key '" + key + "'; known keys: " + new TreeSet<>(KEYS));
            }
        }
        ConfigValues config = ConfigValues.of(values);
        Map<String, String> tlsKeys = new TreeMap<>(values);
        tlsKeys.keySet().retainAll(TlsSettings.KEYS);
        String kvPath = config.string("kvConfigPath", "");
        String aclFile = config.string("aclFile", "");
        RemotingServerKeys.Limits remoting = RemotingServerKeys.parse(config::get, "namesrv configuration");
        RequestLimits limits = RequestLimits.parse(config::get, remoting.maxFrameBytes());
        return new NamesrvConfig(
                config.intValue("listenPort", 9876),
                config.string("bindAddress", "127.0.0.1"),
                config.longValue("scanNotActiveBrokerInterval", 10_000),
                config.longValue("brokerChannelExpiredTime", 120_000),
                config.bool("orderMessageEnable", false),
                config.bool("enableAllTopicList", true),
                config.bool("enableTopicList", true),
                config.bool("deleteTopicWithBrokerRegistration", false),
                kvPath.isBlank() ? null : Path.of(kvPath),
                config.bool("aclEnable", false),
                Path.of(aclFile.isBlank() ? DEFAULT_ACL_FILE : aclFile.trim()), remoting, limits,
                TlsSettings.resolve(tlsKeys, System.getProperties()));
    }

    /**
     * Reads a {@code namesrv.conf} file ({@link Properties} syntax).
     *
     * @throws ConfigException if the file cannot be read or holds an unknown key or bad value; the
     *                         message names the file
     */
    public static NamesrvConfig load(Path file, Consumer<String> warnings) {
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

    /** A copy bound to another port (0 for ephemeral). */
    public NamesrvConfig withListenPort(int port) {
        return new NamesrvConfig(port, bindAddress, scanNotActiveBrokerInterval, brokerChannelExpiredTime,
                orderMessageEnable, enableAllTopicList, enableTopicList, deleteTopicWithBrokerRegistration,
                kvConfigPath, aclEnable, aclFile, remoting, limits, tls);
    }

    /** A copy with ACL 1.0 on or off, reading {@code file}. */
    public NamesrvConfig withAcl(boolean enable, Path file) {
        return new NamesrvConfig(listenPort, bindAddress, scanNotActiveBrokerInterval, brokerChannelExpiredTime,
                orderMessageEnable, enableAllTopicList, enableTopicList, deleteTopicWithBrokerRegistration,
                kvConfigPath, enable, file, remoting, limits, tls);
    }

    /** A copy with other TLS settings (a name server embedded beside a broker takes the broker's). */
    public NamesrvConfig withTls(TlsSettings settings) {
        return new NamesrvConfig(listenPort, bindAddress, scanNotActiveBrokerInterval, brokerChannelExpiredTime,
                orderMessageEnable, enableAllTopicList, enableTopicList, deleteTopicWithBrokerRegistration,
                kvConfigPath, aclEnable, aclFile, remoting, limits, settings);
    }

    /** The settings as {@code key=value} pairs, sorted by key ({@code kvConfigPath} empty when unset). */
    public Map<String, String> asProperties() {
        Map<String, String> map = new TreeMap<>();
        map.put("listenPort", Integer.toString(listenPort));
        map.put("bindAddress", bindAddress);
        map.put("scanNotActiveBrokerInterval", Long.toString(scanNotActiveBrokerInterval));
        map.put("brokerChannelExpiredTime", Long.toString(brokerChannelExpiredTime));
        map.put("orderMessageEnable", Boolean.toString(orderMessageEnable));
        map.put("enableAllTopicList", Boolean.toString(enableAllTopicList));
        map.put("enableTopicList", Boolean.toString(enableTopicList));
        map.put("deleteTopicWithBrokerRegistration", Boolean.toString(deleteTopicWithBrokerRegistration));
        map.put("kvConfigPath", kvConfigPath == null ? "" : kvConfigPath.toString());
        map.put("aclEnable", Boolean.toString(aclEnable));
        map.put("aclFile", aclFile.toString());
        map.putAll(remoting.asProperties());
        map.putAll(limits.asProperties());
        return map;
    }
}
