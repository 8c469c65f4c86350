package org.modmq.ha.push.config;

import java.time.Duration;
import java.util.Objects;
import org.modmq.api.config.ConfigException;
import org.modmq.api.config.ConfigValues;

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
 */
public record PushConfig(String bindHost, int listenPort, int windowBytes, int maxFrameBytes,
                         Duration heartbeatInterval, Duration silenceTimeout, Duration reconnectMin,
                         Duration reconnectMax) {

    /** Largest frame body either side accepts; larger frames close the connection. */
    public static final int MAX_FRAME_BODY = 16 * 1024 * 1024;

    public PushConfig {
        Objects.requireNonNull(bindHost, "bindHost");
        Objects.requireNonNull(heartbeatInterval, "heartbeatInterval");
        Objects.requireNonNull(silenceTimeout, "silenceTimeout");
        Objects.requireNonNull(reconnectMin, "reconnectMin");
        Objects.requireNonNull(reconnectMax, "reconnectMax");
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

    /** Reads the keys above from {@code values}. */
    public static PushConfig from(ConfigValues values) {
        Objects.requireNonNull(values, "values");
        String host = values.get("haBindAddress")
                .or(() -> values.get("brokerIP2"))
                .or(() -> values.get("brokerIP1"))
                .orElse("127.0.0.1");
        int port = values.intValue("haListenPort", values.intValue("listenPort", 10911) + 1);
        return new PushConfig(host, port, (int) positive(values, "haPushWindowBytes", 4 * 1024 * 1024),
                (int) positive(values, "haTransferBatchSize", 256 * 1024),
                Duration.ofMillis(positive(values, "haSendHeartbeatInterval", 1_000)),
                Duration.ofMillis(positive(values, "haHousekeepingInterval", 10_000)),
                Duration.ofMillis(positive(values, "haReconnectMinMillis", 100)),
                Duration.ofMillis(positive(values, "haReconnectMaxMillis", 5_000)));
    }

    private static long positive(ConfigValues values, String key, long defaultValue) {
        long value = values.longValue(key, defaultValue);
        if (value <= 0 || value > Integer.MAX_VALUE) {
            throw new ConfigException(key + "=" + value + " must be a positive int");
        }
        return value;
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
