package org.modmq.replication.tck;

import java.util.Objects;
import org.modmq.api.config.ConfigValues;
import org.modmq.api.config.PluginConfig;
import org.modmq.api.spi.PluginContext;
import org.modmq.api.spi.replication.ReplicaRole;
import org.modmq.api.spi.replication.ReplicationContext;
import org.modmq.api.spi.replication.ReplicationStrategy;
import org.modmq.api.spi.replication.ReplicationStrategyProvider;
import org.modmq.api.spi.replication.RoleState;

/**
 * One broker as replication sees it: an in-memory log, the progress its master side reports to, and a
 * strategy created from the provider under test, driven the way the store drives it (create, start, the
 * role it has, transitions, close). {@link #restart()} closes the strategy and starts a new one on the same
 * port and log, as a broker restart does. Transitions are called from the test thread only.
 */
public final class ReplicationNode implements AutoCloseable {

    private final String name;
    private final long brokerId;
    private final int haPort;
    private final ReplicationStrategyProvider provider;
    private final ConfigValues settings;
    private final PluginContext plugin;
    private final MemoryReplicatedLog log;
    private final RecordingProgress progress;
    private ReplicationStrategy strategy;
    private RoleState role = new RoleState(ReplicaRole.REPLICA, 0, null);

    ReplicationNode(String name, long brokerId, int haPort, ReplicationStrategyProvider provider,
                    ConfigValues settings, PluginContext plugin, MemoryReplicatedLog log, RecordingProgress progress) {
        this.name = Objects.requireNonNull(name, "name");
        this.brokerId = brokerId;
        this.haPort = haPort;
        this.provider = Objects.requireNonNull(provider, "provider");
        this.settings = Objects.requireNonNull(settings, "settings");
        this.plugin = Objects.requireNonNull(plugin, "plugin");
        this.log = Objects.requireNonNull(log, "log");
        this.progress = Objects.requireNonNull(progress, "progress");
    }

    /** Creates a strategy and starts it (it binds its HA port), then applies the node's current role. */
    public void start() {
        if (strategy != null) {
            throw new IllegalStateException(name + " is already started");
        }
        ReplicationStrategy created = provider.create(PluginConfig.of(provider.configKeys(), settings),
                new ReplicationContext(plugin, log, progress));
        try {
            created.start();
        } catch (RuntimeException e) {
            created.close();
            throw e;
        }
        strategy = created;
        if (role.master()) {
            strategy.becomeMaster(role.epoch());
        } else {
            strategy.becomeReplica(role.epoch(), role.masterHaAddress(), brokerId);
        }
    }

    /** As the store: the log records {@code epoch} and takes writes, then the strategy serves. */
    public void becomeMaster(int epoch) {
        log.becomeMaster(epoch);
        role = new RoleState(ReplicaRole.MASTER, epoch, null);
        strategy().becomeMaster(epoch);
    }

    /** As the store: the log takes replicated bytes, then the strategy follows {@code master} (null: nobody). */
    public void becomeReplica(int epoch, ReplicationNode master) {
        String address = master == null ? null : master.haAddress();
        log.becomeReplica();
        role = new RoleState(ReplicaRole.REPLICA, epoch, address);
        strategy().becomeReplica(epoch, address, brokerId);
    }

    /** Master: appends {@code length} bytes of its own and tells the strategy; returns the new end. */
    public long write(int length) {
        long end = log.write(length);
        strategy().appended(end);
        return end;
    }

    /** Closes the strategy and starts a new one on the same port and log, in the same role. */
    public void restart() {
        stop();
        start();
    }

    /** Closes the strategy, if started; the log stays. */
    public void stop() {
        ReplicationStrategy running = strategy;
        strategy = null;
        if (running != null) {
            running.close();
        }
    }

    /** The strategy now running. */
    public ReplicationStrategy strategy() {
        if (strategy == null) {
            throw new IllegalStateException(name + " is not started");
        }
        return strategy;
    }

    public String name() {
        return name;
    }

    public long brokerId() {
        return brokerId;
    }

    /** The HA port the kit picked for this node. */
    public int haPort() {
        return haPort;
    }

    /** {@code 127.0.0.1:<haPort>}, what replicas of this node dial. */
    public String haAddress() {
        return "127.0.0.1:" + haPort;
    }

    public MemoryReplicatedLog log() {
        return log;
    }

    public RecordingProgress progress() {
        return progress;
    }

    /** The settings the strategy is created with. */
    public ConfigValues settings() {
        return settings;
    }

    @Override
    public void close() {
        log.releaseAppends();
        stop();
    }

    @Override
    public String toString() {
        return name + "(broker " + brokerId + ", " + haAddress() + ", " + role + ")";
    }
}
