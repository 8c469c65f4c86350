package org.modmq.ha.push;

import java.util.List;
import java.util.Objects;
import org.modmq.api.config.ConfigKey;
import org.modmq.api.config.PluginConfig;
import org.modmq.api.spi.replication.ReplicationContext;
import org.modmq.api.spi.replication.ReplicationStrategy;
import org.modmq.api.spi.replication.ReplicationStrategyProvider;
import org.modmq.ha.push.config.PushConfig;

/**
 * {@code haStrategy=push}: the master pushes appended CommitLog bytes to replicas as they are written
 * and replicas acknowledge asynchronously; epochs and the consistent point travel in its own
 * handshake. Declares {@code haBindAddress}, {@code haPushWindowBytes}, {@code haTransferBatchSize},
 * {@code haSendHeartbeatInterval}, {@code haHousekeepingInterval}, {@code haReconnectMinMillis} and
 * {@code haReconnectMaxMillis} and {@code haAuthSecret} (modmq: both ends prove it before any HA byte), and reads the broker key {@code haListenPort} (see {@link PushConfig}); the store reads
 * {@code haMasterAddress} and {@code haSlaveFallbehindMax} itself. Stateless and thread-safe.
 */
public final class PushReplicationStrategyProvider implements ReplicationStrategyProvider {

    /** The name configuration uses. */
    public static final String NAME = "push";

    public PushReplicationStrategyProvider() {
        // Public no-arg constructor: ServiceLoader needs it on the class path.
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public List<ConfigKey> configKeys() {
        return PushConfig.KEYS;
    }

    /**
     * A strategy without a role: once started it listens on the HA port, then serves or follows as the
     * store's transitions say.
     *
     * @throws org.modmq.api.config.ConfigException when a key has a bad value
     */
    @Override
    public ReplicationStrategy create(PluginConfig config, ReplicationContext context) {
        Objects.requireNonNull(config, "config");
        Objects.requireNonNull(context, "context");
        return new PushReplicationStrategy(PushConfig.from(config), context);
    }
}
