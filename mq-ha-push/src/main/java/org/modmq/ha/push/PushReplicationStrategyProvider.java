package org.modmq.ha.push;

import java.util.Objects;
import org.modmq.api.config.ConfigValues;
import org.modmq.api.spi.replication.ReplicationContext;
import org.modmq.api.spi.replication.ReplicationStrategy;
import org.modmq.api.spi.replication.ReplicationStrategyProvider;
import org.modmq.ha.push.config.PushConfig;

/**
 * {@code haStrategy=push}: the master pushes appended CommitLog bytes to replicas as they are written
 * and replicas acknowledge asynchronously. Keys: {@code haListenPort}, {@code haBindAddress},
 * {@code haMasterAddress}, {@code haSlaveFallbehindMax}, {@code haPushWindowBytes},
 * {@code haTransferBatchSize}, {@code haSendHeartbeatInterval}, {@code haHousekeepingInterval},
 * {@code haReconnectMinMillis}, {@code haReconnectMaxMillis} (see {@link PushConfig}). Stateless and
 * thread-safe.
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

    /**
     * A strategy for {@code context.role()}: master roles listen for replicas once started, a SLAVE
     * follows {@code haMasterAddress} (if set) or whatever {@code followMaster} names.
     *
     * @throws org.modmq.api.config.ConfigException when a key has a bad value
     */
    @Override
    public ReplicationStrategy create(ConfigValues config, ReplicationContext context) {
        Objects.requireNonNull(config, "config");
        Objects.requireNonNull(context, "context");
        return new PushReplicationStrategy(PushConfig.from(config), context);
    }
}
