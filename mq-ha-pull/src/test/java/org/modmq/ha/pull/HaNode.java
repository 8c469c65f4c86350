package org.modmq.ha.pull;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.UnaryOperator;
import org.modmq.api.config.ConfigValues;
import org.modmq.api.config.PluginConfig;
import org.modmq.api.spi.PluginContext;
import org.modmq.api.spi.ProviderRegistry;
import org.modmq.api.spi.flush.FlushPolicyProvider;
import org.modmq.api.spi.replication.ReplicatedLog;
import org.modmq.api.spi.replication.ReplicationContext;
import org.modmq.api.spi.replication.ReplicationStrategy;
import org.modmq.api.spi.replication.ReplicationStrategyProvider;
import org.modmq.api.spi.storage.StorageBackend;
import org.modmq.api.spi.storage.StorageBackendProvider;
import org.modmq.store.MessageStore;
import org.modmq.store.StoreConfig;

/**
 * One real store (mmap backend, ASYNC_FLUSH) with the pull strategy, opened the way a broker opens it:
 * the store creates, starts and drives the strategy. The strategy is captured so tests can find its HA
 * port; redial delays are short. Closes the store, then the backend.
 */
final class HaNode implements AutoCloseable {

    final Path root;
    final MessageStore store;
    final PullReplicationStrategy strategy;
    private final StorageBackend backend;

    private HaNode(Path root, MessageStore store, PullReplicationStrategy strategy, StorageBackend backend) {
        this.root = root;
        this.store = store;
        this.strategy = strategy;
        this.backend = backend;
    }

    static HaNode open(Path root, ConfigValues values, ScheduledExecutorService scheduler) {
        return open(root, values, scheduler, UnaryOperator.identity());
    }

    /** As {@link #open(Path, ConfigValues, ScheduledExecutorService)} on the mmap backend as {@code wrap} wraps it. */
    static HaNode open(Path root, ConfigValues values, ScheduledExecutorService scheduler,
                       UnaryOperator<StorageBackend> wrap) {
        PluginContext plugin = TestStores.plugin(root, scheduler);
        StorageBackendProvider mmap = ProviderRegistry.load(StorageBackendProvider.class).get("mmap");
        StorageBackend backend = wrap.apply(mmap.create(PluginConfig.of(mmap.configKeys(), values), plugin));
        Capturing provider = new Capturing();
        try {
            MessageStore store = MessageStore.open(StoreConfig.from(values, root), backend,
                    ProviderRegistry.load(FlushPolicyProvider.class).get("ASYNC_FLUSH"), provider, plugin, () -> 0.1);
            return new HaNode(root, store, provider.created.get(), backend);
        } catch (RuntimeException e) {
            backend.close();
            throw e;
        }
    }

    /** {@code 127.0.0.1:<bound HA port>}. */
    String haAddress() {
        return "127.0.0.1:" + strategy.listenAddress().getPort();
    }

    ReplicatedLog log() {
        return store.replicatedLog();
    }

    @Override
    public void close() {
        try {
            store.close();
        } finally {
            backend.close();
        }
    }

    /** Creates the strategy as the registered provider does, with short redial delays, and keeps it. */
    private static final class Capturing implements ReplicationStrategyProvider {

        final AtomicReference<PullReplicationStrategy> created = new AtomicReference<>();

        @Override
        public String name() {
            return PullReplicationStrategyProvider.NAME;
        }

        @Override
        public java.util.List<org.modmq.api.config.ConfigKey> configKeys() {
            return PullConfig.KEYS;
        }

        @Override
        public ReplicationStrategy create(PluginConfig config, ReplicationContext context) {
            Objects.requireNonNull(context, "context");
            PullReplicationStrategy strategy = new PullReplicationStrategy(PullConfig.from(config)
                    .withReconnect(Duration.ofMillis(100), Duration.ofMillis(400)), context);
            created.set(strategy);
            return strategy;
        }
    }
}
