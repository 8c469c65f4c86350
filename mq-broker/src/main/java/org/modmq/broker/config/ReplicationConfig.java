package org.modmq.broker.config;

import java.util.Objects;

/**
 * Replication settings ({@code haStrategy}, {@code haSlaveFallbehindMax}, {@code haSendHeartbeatInterval},
 * {@code haHousekeepingInterval}); the role itself is in {@link BrokerIdentityConfig}. Immutable.
 *
 * @param strategy modmq's {@code haStrategy}: the ReplicationStrategy provider name ({@code pull} or {@code push})
 * @param slaveFallBehindMaxBytes a slave further behind than this is not in sync
 * @param heartbeatIntervalMillis slave's report interval
 * @param housekeepingIntervalMillis a replication connection silent this long is closed
 */
public record ReplicationConfig(String strategy, long slaveFallBehindMaxBytes, long heartbeatIntervalMillis,
                                long housekeepingIntervalMillis) {

    public ReplicationConfig {
        Objects.requireNonNull(strategy, "strategy");
    }

    static ReplicationConfig read(ConfigReader reader) {
        return new ReplicationConfig(
                reader.string("haStrategy", "pull"),
                reader.longIn("haSlaveFallbehindMax", 256L * 1024 * 1024, 0, Long.MAX_VALUE),
                reader.longIn("haSendHeartbeatInterval", 5_000, 100, 600_000),
                reader.longIn("haHousekeepingInterval", 20_000, 1_000, 3_600_000));
    }
}
