package org.modmq.broker.runtime;

import java.util.Objects;
import org.modmq.api.config.ConfigException;
import org.modmq.api.spi.NamedProvider;
import org.modmq.api.spi.ProviderRegistry;
import org.modmq.api.spi.UnknownProviderException;
import org.modmq.api.spi.flush.FlushPolicyProvider;
import org.modmq.api.spi.replication.ReplicationStrategyProvider;
import org.modmq.api.spi.storage.StorageBackendProvider;
import org.modmq.broker.config.BrokerConfig;
import org.modmq.broker.config.PluginCatalog;

/**
 * Chooses the storage, flush and replication providers named by {@code storeBackend},
 * {@code flushDiskType} and {@code haStrategy}. The broker knows plugins only by these names: the
 * registries are loaded with {@link ProviderRegistry#load(Class)} (the {@code uses} clauses live in
 * {@code org.modmq.api}); a name is matched exactly, else ignoring case; an unknown name is a
 * {@link ConfigException} naming the key, the file and the names present. Stateless and thread-safe; the store binding factory calls it while opening the store.
 */
public final class PluginSelection {

    private final ProviderRegistry<StorageBackendProvider> storage;
    private final ProviderRegistry<FlushPolicyProvider> flush;
    private final ProviderRegistry<ReplicationStrategyProvider> replication;

    public PluginSelection(ProviderRegistry<StorageBackendProvider> storage,
                           ProviderRegistry<FlushPolicyProvider> flush,
                           ProviderRegistry<ReplicationStrategyProvider> replication) {
        this.storage = Objects.requireNonNull(storage, "storage");
        this.flush = Objects.requireNonNull(flush, "flush");
        this.replication = Objects.requireNonNull(replication, "replication");
    }

    /** The providers visible on the module path (or class path) of this runtime. */
    public static PluginSelection discover() {
        return of(PluginCatalog.installed());
    }

    /** The providers of {@code catalog}. */
    public static PluginSelection of(PluginCatalog catalog) {
        return new PluginSelection(catalog.storage(), catalog.flush(), catalog.replication());
    }

    /** @throws ConfigException when no StorageBackend answers to {@code storeBackend} */
    public StorageBackendProvider storageBackend(BrokerConfig config) {
        return pick(storage, "storeBackend", config.store().storeBackend(), config);
    }

    /** @throws ConfigException when no FlushPolicy answers to {@code flushDiskType} */
    public FlushPolicyProvider flushPolicy(BrokerConfig config) {
        return pick(flush, "flushDiskType", config.store().flushDiskType(), config);
    }

    /** @throws ConfigException when no ReplicationStrategy answers to {@code haStrategy} */
    public ReplicationStrategyProvider replicationStrategy(BrokerConfig config) {
        return pick(replication, "haStrategy", config.replication().strategy(), config);
    }

    private static <P extends NamedProvider> P pick(ProviderRegistry<P> registry, String key, String name,
                                                    BrokerConfig config) {
        try {
            return registry.get(name);
        } catch (UnknownProviderException e) {
            // RocketMQ reads flushDiskType ignoring case; every selector key does here.
            for (P provider : registry.providers()) {
                if (provider.name().equalsIgnoreCase(name)) {
                    return provider;
                }
            }
            throw new ConfigException(key + "=" + name + " in " + config.source() + " names no installed plugin: "
                    + "expected one of " + registry.names());
        }
    }
}
