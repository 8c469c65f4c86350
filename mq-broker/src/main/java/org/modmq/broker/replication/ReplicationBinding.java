package org.modmq.broker.replication;

import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.modmq.api.config.BrokerRole;
import org.modmq.api.config.ConfigValues;
import org.modmq.api.spi.PluginContext;
import org.modmq.api.spi.replication.ReplicaState;
import org.modmq.api.spi.replication.ReplicatedLog;
import org.modmq.api.spi.replication.ReplicationContext;
import org.modmq.api.spi.replication.ReplicationStrategy;
import org.modmq.broker.config.BrokerConfig;
import org.modmq.broker.config.BrokerIdentityConfig;
import org.modmq.broker.runtime.PluginSelection;
import org.modmq.broker.runtime.ReplicationGate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The broker's side of replication: owns the {@link ReplicationStrategy} named by {@code haStrategy}
 * (created for {@code brokerRole} on the store's {@link ReplicatedLog}) and adapts it to the broker.
 *
 * <ul>
 *   <li>Master: {@link #appended(long)} after every append; on a {@code SYNC_MASTER},
 *       {@link #awaitReplicated(long)} waits at most {@code syncFlushTimeout} for an in-sync slave
 *       (FLUSH_SLAVE_TIMEOUT after it, SLAVE_NOT_AVAILABLE at once when no slave is in sync). An
 *       {@code ASYNC_MASTER} never waits.</li>
 *   <li>Slave: follows {@code haMasterAddress} when configured, else the HA address each
 *       REGISTER_BROKER answer names ({@link #masterChanged}).</li>
 * </ul>
 *
 * <p>The plugin receives the broker's raw values with {@code haListenPort} replaced by the port the
 * broker resolved (and advertises as {@code haServerAddr}), because the plugins read an explicit 0 as
 * "ephemeral" where the broker reads it as {@code listenPort + 1}.
 *
 * <p>Threading: thread-safe. The strategy completes replication futures on its network thread; this
 * binding hands those completions to a thread of its own so that answering a send never runs on it.
 * {@link #close()} stops the strategy and that thread; it must run before the store closes. Idempotent.
 */
public final class ReplicationBinding implements ReplicationGate, AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(ReplicationBinding.class);

    private final ReplicationStrategy strategy;
    private final BrokerRole role;
    private final Duration slaveTimeout;
    private final Optional<String> configuredMaster;
    private final ExecutorService completions;
    private String followed;
    private boolean closed;

    private ReplicationBinding(ReplicationStrategy strategy, BrokerConfig config) {
        this.strategy = strategy;
        this.role = config.identity().role();
        this.slaveTimeout = Duration.ofMillis(config.store().syncFlushTimeoutMillis());
        this.configuredMaster = config.replication().masterAddress();
        this.followed = configuredMaster.orElse(null);
        this.completions = Executors.newSingleThreadExecutor(runnable -> {
            Thread thread = new Thread(runnable, "ReplicationCompletion-" + config.identity().brokerName());
            thread.setDaemon(true);
            return thread;
        });
    }

    /**
     * Creates and starts the strategy for this broker's role. Call once the store is open.
     *
     * @param config the broker configuration
     * @param plugins where the strategy is looked up by {@code haStrategy}
     * @param context clock, scheduler, allocator and store root for the plugin
     * @param log the open store's CommitLog as replication sees it
     * @throws org.modmq.api.config.ConfigException when {@code haStrategy} names no plugin or a plugin key
     *     is bad
     * @throws java.io.UncheckedIOException when a master cannot bind its HA port
     */
    public static ReplicationBinding open(BrokerConfig config, PluginSelection plugins, PluginContext context,
                                          ReplicatedLog log) {
        Objects.requireNonNull(config, "config");
        Objects.requireNonNull(plugins, "plugins");
        Objects.requireNonNull(context, "context");
        Objects.requireNonNull(log, "log");
        BrokerIdentityConfig identity = config.identity();
        if (identity.role().isMaster() && identity.haListenPort() == 0) {
            LOG.warn("haListenPort resolves to 0 (listenPort=0): the HA port is ephemeral and the address "
                    + "advertised to the name servers ({}) does not reach it; set haListenPort", identity.haServerAddr());
        }
        ConfigValues values = config.raw().with("haListenPort", String.valueOf(identity.haListenPort()));
        ReplicationStrategy strategy = plugins.replicationStrategy(config)
                .create(values, new ReplicationContext(context, identity.role(), log));
        ReplicationBinding binding = new ReplicationBinding(strategy, config);
        try {
            strategy.start();
        } catch (RuntimeException e) {
            binding.close();
            throw e;
        }
        LOG.info("replication {} started as {} ({})", strategy.name(), identity.role(), identity.role().isMaster()
                ? "serving slaves on " + identity.haServerAddr()
                : "following " + config.replication().masterAddress().orElse("the master the name servers name"));
        return binding;
    }

    /** The strategy's provider name. */
    public String strategyName() {
        return strategy.name();
    }

    /** Master: tells the strategy the log grew (a push strategy sends at once). Never blocks. */
    @Override
    public void appended(long endOffset) {
        if (role.isMaster()) {
            strategy.appended(endOffset);
        }
    }

    /**
     * SYNC_MASTER: completes when an in-sync slave holds every byte below {@code endOffset}; fails with a
     * {@code PutStatusException} of FLUSH_SLAVE_TIMEOUT after {@code syncFlushTimeout} or of
     * SLAVE_NOT_AVAILABLE. Other roles complete at once. Completions run on this binding's thread.
     */
    @Override
    public CompletableFuture<Void> awaitReplicated(long endOffset) {
        if (role != BrokerRole.SYNC_MASTER) {
            return CompletableFuture.completedFuture(null);
        }
        CompletableFuture<Void> replicated;
        try {
            replicated = strategy.awaitReplicated(endOffset, slaveTimeout);
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
        if (replicated.isDone()) {
            return replicated;
        }
        return replicated.whenCompleteAsync((ignored, failure) -> { }, completions);
    }

    /** Master: the slaves now connected; empty on a slave. */
    public List<ReplicaState> replicas() {
        return role.isMaster() ? strategy.replicas() : List.of();
    }

    /**
     * Slave: follows {@code masterHaAddr} unless {@code haMasterAddress} is configured or it is the
     * address already followed. A null address (the master is not live) keeps the current one: the
     * strategy keeps redialling it. Ignored on a master.
     */
    public void masterChanged(String masterAddr, String masterHaAddr) {
        if (role.isMaster() || masterHaAddr == null) {
            return;
        }
        synchronized (this) {
            if (closed || configuredMaster.isPresent() || masterHaAddr.equals(followed)) {
                return;
            }
            followed = masterHaAddr;
        }
        LOG.info("following master {} at HA address {}", masterAddr, masterHaAddr);
        strategy.followMaster(masterHaAddr);
    }

    /** Stops the strategy, then the completion thread. Idempotent. */
    @Override
    public void close() {
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
        }
        try {
            strategy.close();
        } finally {
            completions.shutdown();
            try {
                if (!completions.awaitTermination(5, TimeUnit.SECONDS)) {
                    LOG.warn("replication completions still running after 5 s");
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
