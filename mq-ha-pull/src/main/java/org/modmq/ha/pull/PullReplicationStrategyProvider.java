package org.modmq.ha.pull;

import java.util.List;
import java.util.Objects;
import org.modmq.api.config.ConfigKey;
import org.modmq.api.config.PluginConfig;
import org.modmq.api.spi.replication.ReplicationContext;
import org.modmq.api.spi.replication.ReplicationStrategy;
import org.modmq.api.spi.replication.ReplicationStrategyProvider;

/**
 * {@code haStrategy=pull}: RocketMQ's HA protocols, in which the replica dials the master and reports what
 * it holds and the master streams CommitLog bytes from there: classic HA, or RocketMQ 5's AutoSwitch HA
 * (handshake, epochs, truncation of a diverged tail, confirm offset) when {@code enableControllerMode=true}.
 * Declares {@code haTransferBatchSize}, {@code haSendHeartbeatInterval}, {@code haHousekeepingInterval} and
 * {@code haAuthSecret} (modmq: authentication of both ends before the HA bytes, {@link HaAuthGate});
 * reads the broker keys {@code haListenPort}, {@code listenPort}, {@code brokerIP1}, {@code brokerIP2},
 * {@code enableControllerMode}, {@code syncFromLastFile}, {@code asyncLearner} and
 * {@code mappedFileSizeCommitLog}.
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

    @Override
    public List<ConfigKey> configKeys() {
        return PullConfig.KEYS;
    }

    /**
     * A strategy, not started and without a role; nothing is bound or dialed before its {@code start()}.
     *
     * @throws org.modmq.api.config.ConfigException when a key has a bad value
     */
    @Override
    public ReplicationStrategy create(PluginConfig config, ReplicationContext context) {
        Objects.requireNonNull(config, "config");
        Objects.requireNonNull(context, "context");
        return new PullReplicationStrategy(PullConfig.from(config), context);
    }
}
