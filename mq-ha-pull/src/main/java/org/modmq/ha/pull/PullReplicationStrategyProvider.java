package org.modmq.ha.pull;

import java.util.Objects;
import org.modmq.api.config.ConfigValues;
import org.modmq.api.spi.replication.ReplicationContext;
import org.modmq.api.spi.replication.ReplicationStrategy;
import org.modmq.api.spi.replication.ReplicationStrategyProvider;

/**
 * {@code haStrategy=pull}: RocketMQ's classic HA (the slave reports its offset, the master streams from
 * it). Reads {@code haListenPort}, {@code listenPort}, {@code brokerIP1}, {@code brokerIP2},
 * {@code haMasterAddress}, {@code haTransferBatchSize}, {@code haSendHeartbeatInterval},
 * {@code haHousekeepingInterval}, {@code haSlaveFallbehindMax} and {@code mappedFileSizeCommitLog}.
 * Stateless and thread-safe.
 */
public final class PullReplicationStrategyProvider implements ReplicationStrategyProvider {

    static final String NAME = "pull";

    /** Required by {@link java.util.ServiceLoader}. */
    public PullReplicationStrategyProvider() {
        // stateless
    }

    @Override
    public String name() {
        return NAME;
    }

    /**
     * A strategy for {@code context.role()}; nothing is bound or dialed before its {@code start()}.
     *
     * @throws org.modmq.api.config.ConfigException when a key has a bad value
     */
    @Override
    public ReplicationStrategy create(ConfigValues config, ReplicationContext context) {
        Objects.requireNonNull(config, "config");
        Objects.requireNonNull(context, "context");
        return new PullReplicationStrategy(PullConfig.from(config), context);
    }
}
