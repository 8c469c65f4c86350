package org.modmq.broker.config;

import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * Replication settings ({@code haStrategy}, {@code haSlaveFallbehindMax}, {@code haSendHeartbeatInterval},
 * {@code haHousekeepingInterval}, {@code haMasterAddress}); the role, {@code brokerId} and
 * {@code haListenPort} are in {@link BrokerIdentityConfig}. Immutable.
 *
 * <p>The chosen strategy plugin reads its keys itself from the raw values; the broker accepts the
 * keys of the bundled plugins ({@link #PLUGIN_KEYS}) as known, because the SPI cannot declare them.
 *
 * @param strategy modmq's {@code haStrategy}: the ReplicationStrategy provider name ({@code pull} or {@code push})
 * @param slaveFallBehindMaxBytes a slave further behind than this is not in sync
 * @param heartbeatIntervalMillis slave's report interval
 * @param housekeepingIntervalMillis a replication connection silent this long is closed
 * @param masterAddress {@code haMasterAddress}: the HA address a slave follows from start; empty when the
 *        slave learns it from the name servers' REGISTER_BROKER answers (then it follows every change)
 * @param haTlsEnable modmq's {@code haTlsEnable}: the HA port takes TLS connections only (with the
 *        {@code tls.server.*} certificate) and a replica dials its master with TLS ({@code tls.client.*});
 *        every broker of a set must agree. Off by default: stock RocketMQ slaves speak plain HA
 */
public record ReplicationConfig(String strategy, long slaveFallBehindMaxBytes, long heartbeatIntervalMillis,
                                long housekeepingIntervalMillis, Optional<String> masterAddress, boolean haTlsEnable) {

    /**
     * Keys read by the bundled strategy plugins only ({@code mq-ha-pull}, {@code mq-ha-push}): accepted
     * without a warning and handed to the plugin untouched. {@code haTransferBatchSize} is RocketMQ's;
     * the others are modmq's.
     */
    public static final Set<String> PLUGIN_KEYS = Set.of("haTransferBatchSize", "haBindAddress",
            "haPushWindowBytes", "haReconnectMinMillis", "haReconnectMaxMillis");

    public ReplicationConfig {
        Objects.requireNonNull(strategy, "strategy");
        Objects.requireNonNull(masterAddress, "masterAddress");
    }

    static ReplicationConfig read(ConfigReader reader) {
        ReplicationConfig config = new ReplicationConfig(
                reader.string("haStrategy", "pull"),
                reader.longIn("haSlaveFallbehindMax", 256L * 1024 * 1024, 0, Long.MAX_VALUE),
                reader.longIn("haSendHeartbeatInterval", 5_000, 100, 600_000),
                reader.longIn("haHousekeepingInterval", 20_000, 1_000, 3_600_000),
                Optional.ofNullable(reader.string("haMasterAddress", null)),
                reader.bool("haTlsEnable", false));
        config.masterAddress().ifPresent(address -> {
            int colon = address.lastIndexOf(':');
            if (colon <= 0 || !address.substring(colon + 1).matches("\\d{1,5}")) {
                throw reader.bad("haMasterAddress", address, "host:port of the master's HA port");
            }
        });
        for (String key : PLUGIN_KEYS) {
            reader.string(key, null);
        }
        return config;
    }
}
