package org.modmq.broker.config;

import java.util.Objects;
import java.util.Optional;

/**
 * Replication settings the broker acts on ({@code haStrategy}, {@code haSlaveFallbehindMax},
 * {@code haMasterAddress}, {@code haTlsEnable}); the role, {@code brokerId} and {@code haListenPort} are in
 * {@link BrokerIdentityConfig}. Immutable.
 *
 * <p>The strategy plugins declare their own keys ({@code haTransferBatchSize}, {@code haSendHeartbeatInterval},
 * ...; see {@code PluginKeys}), each with its own default.
 *
 * @param strategy modmq's {@code haStrategy}: the ReplicationStrategy provider name ({@code pull} or {@code push})
 * @param slaveFallBehindMaxBytes a slave further behind than this is not in sync
 * @param masterAddress {@code haMasterAddress}: the HA address a slave follows from start; empty when the
 *        slave learns it from the name servers' REGISTER_BROKER answers (then it follows every change)
 * @param haTlsEnable modmq's {@code haTlsEnable}: the HA port takes TLS connections only (with the
 *        {@code tls.server.*} certificate) and a replica dials its master with TLS ({@code tls.client.*});
 *        every broker of a set must agree. Off by default: stock RocketMQ slaves speak plain HA
 */
public record ReplicationConfig(String strategy, long slaveFallBehindMaxBytes, Optional<String> masterAddress,
                                boolean haTlsEnable) {

    public ReplicationConfig {
        Objects.requireNonNull(strategy, "strategy");
        Objects.requireNonNull(masterAddress, "masterAddress");
    }

    static ReplicationConfig read(ConfigReader reader) {
        ReplicationConfig config = new ReplicationConfig(
                reader.string("haStrategy", "pull"),
                reader.longIn("haSlaveFallbehindMax", 256L * 1024 * 1024, 0, Long.MAX_VALUE),
                Optional.ofNullable(reader.string("haMasterAddress", null)),
                reader.bool("haTlsEnable", false));
        config.masterAddress().ifPresent(address -> {
            int colon = address.lastIndexOf(':');
            if (colon <= 0 || !address.substring(colon + 1).matches("\\d{1,5}")) {
                throw reader.bad("haMasterAddress", address, "host:port of the master's HA port");
            }
        });
        return config;
    }
}
