package org.modmq.ha.push.config;

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
 * The push strategy's settings, parsed once from {@code broker.conf} keys. Immutable.
 *
 * @param bindHost {@code haBindAddress} (modmq): where the master listens; default {@code brokerIP2},
 *     else {@code brokerIP1}, else 127.0.0.1
 * @param listenPort {@code haListenPort}: the master's HA port; default {@code listenPort} + 1
 *     (10912); 0 binds an ephemeral port
 * @param windowBytes {@code haPushWindowBytes} (modmq): bytes sent but not acknowledged, per replica,
 *     before the master stops sending (default 4 MiB)
 * @param maxFrameBytes {@code haTransferBatchSize}: largest data frame body (default 256 KiB)
 * @param heartbeatInterval {@code haSendHeartbeatInterval}, ms: a side idle this long sends a
 *     heartbeat (default 1000)
 * @param silenceTimeout {@code haHousekeepingInterval}, ms: a connection that received nothing for
 *     this long is closed (default 10000)
 * @param reconnectMin first reconnect delay of a replica; doubles up to {@code reconnectMax}
 *     ({@code haReconnectMinMillis} 100, {@code haReconnectMaxMillis} 5000)
 * @param reconnectMax longest reconnect delay
 * @param auth {@code haAuthSecret} (modmq): both ends prove the shared secret before any HA byte; empty: off
 */
public record PushConfig(String bindHost, int listenPort, int windowBytes, int maxFrameBytes,
                         Duration heartbeatInterval, Duration silenceTimeout, Duration reconnectMin,
                         Duration reconnectMax, Optional<HaPeerProof> auth) {

    /** Largest frame body either side accepts; larger frames close the connection. */
    public static final int MAX_FRAME_BODY = 16 * 1024 * 1024;

    /** The keys the provider declares; {@code haListenPort}, {@code listenPort} and the IPs are broker keys. */
    public static final List<ConfigKey> KEYS = List.of(
            ConfigKey.string("haBindAddress", null,
                    "push: the address the master's HA port binds to; default brokerIP2, else brokerIP1, else 127.0.0.1."),
            ConfigKey.bytes("haPushWindowBytes", 4 * 1024 * 1024, 1024, Integer.MAX_VALUE,
                    "push: bytes sent to one replica and not yet acknowledged before the master waits."),
            ConfigKey.integer("haTransferBatchSize", 256 * 1024, 1, MAX_FRAME_BODY,
                    "push: largest data frame body (RocketMQ's key, another default than pull's)."),
            ConfigKey.millis("haSendHeartbeatInterval", 1_000, 1, 600_000,
                    "push: a side that sent nothing for this long sends a heartbeat (RocketMQ's key)."),
            ConfigKey.millis("haHousekeepingInterval", 10_000, 1, 3_600_000,
                    "push: a connection that received nothing for this long is closed; longer than the heartbeat."),
            ConfigKey.millis("haReconnectMinMillis", 100, 1, Integer.MAX_VALUE,
                    "push: first delay before a replica redials its master; doubles per failure."),
            ConfigKey.millis("haReconnectMaxMillis", 5_000, 1, Integer.MAX_VALUE,
                    "push: longest redial delay of a replica."),
            ConfigKey.secret(HaPeerProof.KEY,
                    "push: shared secret (16+ characters) both ends of an HA connection prove with HMAC-SHA256 "
                            + "before any log byte; unset: off. Every broker of a set must have the same value "
                            + "(modmq)."));

    public PushConfig {
        Objects.requireNonNull(bindHost, "bindHost");
        Objects.requireNonNull(heartbeatInterval, "heartbeatInterval");
        Objects.requireNonNull(silenceTimeout, "silenceTimeout");
        Objects.requireNonNull(reconnectMin, "reconnectMin");
        Objects.requireNonNull(reconnectMax, "reconnectMax");
        Objects.requireNonNull(auth, "auth");
        if (listenPort < 0 || listenPort > 65535) {
            throw new ConfigException("haListenPort=" + listenPort + " must be in [0, 65535]");
        }
        if (windowBytes < 1024) {
            throw new ConfigException("haPushWindowBytes=" + windowBytes + " must be at least 1024");
        }
        if (maxFrameBytes < 1 || maxFrameBytes > MAX_FRAME_BODY) {
            throw new ConfigException("haTransferBatchSize=" + maxFrameBytes + " must be in [1, " + MAX_FRAME_BODY + "]");
        }
        if (silenceTimeout.compareTo(heartbeatInterval) <= 0) {
            throw new ConfigException("haHousekeepingInterval=" + silenceTimeout.toMillis()
                    + " must be longer than haSendHeartbeatInterval=" + heartbeatInterval.toMillis());
        }
    }

    /** Parses the declared keys from {@code values} and reads the rest (tests). */
    public static PushConfig from(ConfigValues values) {
        return from(PluginConfig.of(KEYS, Objects.requireNonNull(values, "values")));
    }

    /** Reads the keys above from {@code config}. */
    public static PushConfig from(PluginConfig config) {
        ConfigValues values = config.values();
        String host = config.text("haBindAddress").filter(h -> !h.isEmpty())
                .or(() -> values.get("brokerIP2"))
                .or(() -> values.get("brokerIP1"))
                .orElse("127.0.0.1");
        int port = values.intValue("haListenPort", values.intValue("listenPort", 10911) + 1);
        return new PushConfig(host, port, (int) config.longValue("haPushWindowBytes"),
                config.intValue("haTransferBatchSize"), config.duration("haSendHeartbeatInterval"),
                config.duration("haHousekeepingInterval"), config.duration("haReconnectMinMillis"),
                config.duration("haReconnectMaxMillis"),
                HaPeerProof.of(config.text(HaPeerProof.KEY), "push"));
    }

    /**
     * Splits {@code host:port}.
     *
     * @throws ConfigException when it is not {@code host:port} with a port in [1, 65535]
     */
    public static HostPort parseAddress(String address) {
        Objects.requireNonNull(address, "address");
        int colon = address.lastIndexOf(':');
        if (colon <= 0 || colon == address.length() - 1) {
            throw new ConfigException("HA master address '" + address + "' is not host:port");
        }
        try {
            int port = Integer.parseInt(address.substring(colon + 1).trim());
            if (port < 1 || port > 65535) {
                throw new ConfigException("HA master address '" + address + "' has a port outside [1, 65535]");
            }
            return new HostPort(address.substring(0, colon).trim(), port);
        } catch (NumberFormatException e) {
            throw new ConfigException("HA master address '" + address + "' has a non-numeric port");
        }
    }

    /** A parsed {@code host:port}. */
    public record HostPort(String host, int port) {
        public HostPort {
            Objects.requireNonNull(host, "host");
        }
    }
}
