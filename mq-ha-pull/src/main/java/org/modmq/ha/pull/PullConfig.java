package org.modmq.ha.pull;

import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.modmq.api.config.ConfigException;
import org.modmq.api.config.ConfigKey;
import org.modmq.api.config.ConfigValues;
import org.modmq.api.config.PluginConfig;
import org.modmq.api.spi.replication.HaPeerProof;

/**
 * The pull strategy's settings, read once from {@code broker.conf} values. Immutable.
 *
 * @param listenHost address the HA port binds to: {@code brokerIP2}, else {@code brokerIP1}, else
 *        {@code 127.0.0.1}
 * @param listenPort {@code haListenPort}; unset means {@code listenPort + 1} (10912); 0 binds an ephemeral port
 * @param controllerMode {@code enableControllerMode}: speak RocketMQ 5's AutoSwitch HA protocol (epochs,
 *        handshake, confirm offset) instead of the classic one (false)
 * @param syncFromLastFile {@code syncFromLastFile}: AutoSwitch, an empty replica asks to start at the
 *        master's last CommitLog file instead of its first (false)
 * @param asyncLearner {@code asyncLearner}: AutoSwitch, this replica tells its master it never joins the
 *        SyncStateSet (false)
 * @param transferBatchSize {@code haTransferBatchSize}: largest frame body, bytes (32 KiB)
 * @param heartbeatInterval {@code haSendHeartbeatInterval}: master's empty frame and replica's report after
 *        this long without sending (5 s)
 * @param housekeepingInterval {@code haHousekeepingInterval}: a connection that read nothing for this
 *        long is closed (20 s)
 * @param segmentSize {@code mappedFileSizeCommitLog}: the CommitLog file size (1 GiB); where "the last
 *        file" of a master starts
 * @param reconnectMin first delay before a replica redials a lost master; doubles per failure
 * @param reconnectMax largest redial delay
 * @param auth {@code haAuthSecret}: both ends prove the shared secret before any HA byte (modmq; empty: off,
 *        the HA bytes are RocketMQ's from the first one)
 */
record PullConfig(String listenHost, int listenPort, boolean controllerMode, boolean syncFromLastFile,
                  boolean asyncLearner, int transferBatchSize, Duration heartbeatInterval,
                  Duration housekeepingInterval, long segmentSize, Duration reconnectMin, Duration reconnectMax,
                  Optional<HaPeerProof> auth) {

    static final int DEFAULT_LISTEN_PORT = 10911;
    static final int DEFAULT_BATCH = 32 * 1024;
    static final long DEFAULT_SEGMENT = 1024L * 1024 * 1024;

    /**
     * The keys the provider declares; the others above are broker keys, read from
     * {@link PluginConfig#values()}.
     */
    static final List<ConfigKey> KEYS = List.of(
            ConfigKey.integer("haTransferBatchSize", DEFAULT_BATCH, 1, ClassicFrameLayout.MAX_BODY,
                    "pull: largest CommitLog chunk the master sends in one HA frame (RocketMQ's key)."),
            ConfigKey.millis("haSendHeartbeatInterval", 5_000, 1, 600_000,
                    "pull: the master's empty frame and the replica's offset report after this long without "
                            + "sending (RocketMQ's key)."),
            ConfigKey.millis("haHousekeepingInterval", 20_000, 1, 3_600_000,
                    "pull: an HA connection that received nothing for this long is closed (RocketMQ's key)."),
            ConfigKey.secret(HaPeerProof.KEY,
                    "pull: shared secret (16+ characters) both ends of an HA connection prove with HMAC-SHA256 "
                            + "before any log byte; unset: off, the port speaks RocketMQ's HA. Every broker of a "
                            + "set must have the same value (modmq)."));

    PullConfig {
        Objects.requireNonNull(listenHost, "listenHost");
        Objects.requireNonNull(heartbeatInterval, "heartbeatInterval");
        Objects.requireNonNull(housekeepingInterval, "housekeepingInterval");
        Objects.requireNonNull(reconnectMin, "reconnectMin");
        Objects.requireNonNull(reconnectMax, "reconnectMax");
        Objects.requireNonNull(auth, "auth");
    }

    /** Parses the declared keys from {@code values} and reads the rest (tests). */
    static PullConfig from(ConfigValues values) {
        return from(PluginConfig.of(KEYS, Objects.requireNonNull(values, "values")));
    }

    /** Reads the keys above; a bad value fails with a {@link ConfigException} naming key and value. */
    static PullConfig from(PluginConfig config) {
        ConfigValues values = config.values();
        String ip1 = values.string("brokerIP1", "127.0.0.1");
        String host = values.string("brokerIP2", ip1);
        int port = values.get("haListenPort").isPresent()
                ? values.intValue("haListenPort", 0)
                : values.intValue("listenPort", DEFAULT_LISTEN_PORT) + 1;
        require(port >= 0 && port <= 65535, "haListenPort", port, "0..65535");
        int batch = config.intValue("haTransferBatchSize");
        long heartbeat = config.longValue("haSendHeartbeatInterval");
        long housekeeping = config.longValue("haHousekeepingInterval");
        long segment = values.longValue("mappedFileSizeCommitLog", DEFAULT_SEGMENT);
        require(segment > 0, "mappedFileSizeCommitLog", segment, "a positive byte count");
        return new PullConfig(host, port, values.bool("enableControllerMode", false),
                values.bool("syncFromLastFile", false), values.bool("asyncLearner", false), batch,
                Duration.ofMillis(heartbeat), Duration.ofMillis(housekeeping), segment, Duration.ofSeconds(1),
                Duration.ofSeconds(5), HaPeerProof.of(config.text(HaPeerProof.KEY), PullReplicationStrategyProvider.NAME));
    }

    /** How often a connection checks its timers: often enough for the shorter interval, at most 100 ms. */
    Duration tick() {
        long shortest = Math.min(heartbeatInterval.toMillis(), housekeepingInterval.toMillis());
        return Duration.ofMillis(Math.max(10, Math.min(100, shortest / 5)));
    }

    /** A copy with other redial delays (tests). */
    PullConfig withReconnect(Duration min, Duration max) {
        return new PullConfig(listenHost, listenPort, controllerMode, syncFromLastFile, asyncLearner,
                transferBatchSize, heartbeatInterval, housekeepingInterval, segmentSize, min, max, auth);
    }

    /** Where "the last file" of a log ending at {@code maxOffset} starts. */
    long lastFileStart(long maxOffset) {
        return maxOffset - Math.floorMod(maxOffset, segmentSize);
    }

    /**
     * Splits {@code host:port}.
     *
     * @throws ConfigException when it is not of that form
     */
    static HostPort parseAddress(String address) {
        Objects.requireNonNull(address, "address");
        int colon = address.lastIndexOf(':');
        if (colon <= 0 || colon == address.length() - 1) {
            throw new ConfigException("HA master address '" + address + "' is not host:port");
        }
        try {
            int port = Integer.parseInt(address.substring(colon + 1).trim());
            if (port <= 0 || port > 65535) {
                throw new ConfigException("HA master address '" + address + "' has port outside 1..65535");
            }
            return new HostPort(address.substring(0, colon).trim(), port);
        } catch (NumberFormatException e) {
            throw new ConfigException("HA master address '" + address + "' has a port that is not a number");
        }
    }

    private static void require(boolean ok, String key, long value, String allowed) {
        if (!ok) {
            throw new ConfigException(key + "=" + value + " is not allowed; expected " + allowed);
        }
    }

    /** A parsed {@code host:port}. */
    record HostPort(String host, int port) {

        HostPort {
            Objects.requireNonNull(host, "host");
        }

        @Override
        public String toString() {
            return host + ":" + port;
        }
    }
}
