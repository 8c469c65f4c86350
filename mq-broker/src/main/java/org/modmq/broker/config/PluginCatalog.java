package org.modmq.broker.config;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import org.modmq.api.config.ConfigKey;
import org.modmq.api.spi.NamedProvider;
import org.modmq.api.spi.ProviderRegistry;
import org.modmq.api.spi.flush.FlushPolicyProvider;
import org.modmq.api.spi.replication.ReplicationStrategyProvider;
import org.modmq.api.spi.storage.StorageBackendProvider;

/**
 * The plugins installed in this runtime, by SPI, with the keys each declares: what {@code broker.conf} may
 * choose ({@code storeBackend}, {@code flushDiskType}, {@code haStrategy}) and which plugin keys it may hold.
 * Immutable and thread-safe.
 *
 * @param storage the storage backends
 * @param flush the flush policies
 * @param replication the replication strategies
 */
public record PluginCatalog(ProviderRegistry<StorageBackendProvider> storage,
                            ProviderRegistry<FlushPolicyProvider> flush,
                            ProviderRegistry<ReplicationStrategyProvider> replication) {

    /** The key that chooses the storage backend. */
    public static final String STORAGE_KEY = "storeBackend";
    /** The key that chooses the flush policy. */
    public static final String FLUSH_KEY = "flushDiskType";
    /** The key that chooses the replication strategy. */
    public static final String REPLICATION_KEY = "haStrategy";

    public PluginCatalog {
        Objects.requireNonNull(storage, "storage");
        Objects.requireNonNull(flush, "flush");
        Objects.requireNonNull(replication, "replication");
    }

    /**
     * The providers {@link java.util.ServiceLoader} finds on the module path (or class path), loaded once
     * per process.
     */
    public static PluginCatalog installed() {
        return Installed.CATALOG;
    }

    /** One SPI: the key that chooses among its providers, and the providers. */
    public record Slot(String selectorKey, String spi, List<? extends NamedProvider> providers) {

        public Slot {
            Objects.requireNonNull(selectorKey, "selectorKey");
            Objects.requireNonNull(spi, "spi");
            providers = List.copyOf(providers);
        }

        /** The provider called {@code name}, else the one whose name differs only in case. */
        public Optional<NamedProvider> find(String name) {
            Objects.requireNonNull(name, "name");
            for (NamedProvider provider : providers) {
                if (provider.name().equals(name)) {
                    return Optional.of(provider);
                }
            }
            for (NamedProvider provider : providers) {
                if (provider.name().equalsIgnoreCase(name)) {
                    return Optional.of(provider);
                }
            }
            return Optional.empty();
        }

        /** The names present, sorted. */
        public Set<String> names() {
            Set<String> names = new TreeSet<>();
            providers.forEach(p -> names.add(p.name()));
            return names;
        }
    }

    /** The three SPIs in the order the reference lists them. */
    public List<Slot> slots() {
        return List.of(new Slot(STORAGE_KEY, "StorageBackendProvider", List.copyOf(storage.providers())),
                new Slot(FLUSH_KEY, "FlushPolicyProvider", List.copyOf(flush.providers())),
                new Slot(REPLICATION_KEY, "ReplicationStrategyProvider", List.copyOf(replication.providers())));
    }

    /** Every key some installed provider declares, sorted. */
    public Set<String> declaredKeys() {
        Set<String> keys = new TreeSet<>();
        for (Slot slot : slots()) {
            for (NamedProvider provider : slot.providers()) {
                provider.configKeys().forEach(k -> keys.add(k.name()));
            }
        }
        return keys;
    }

    /** {@code storeBackend [direct, mmap], flushDiskType [...], haStrategy [...]}, for error messages. */
    String describe() {
        List<String> parts = new ArrayList<>();
        for (Slot slot : slots()) {
            parts.add(slot.selectorKey() + " " + slot.names());
        }
        return String.join(", ", parts);
    }

    /** The declarations of {@code provider}, checked to be well formed. */
    static List<ConfigKey> keysOf(NamedProvider provider) {
        List<ConfigKey> keys = provider.configKeys();
        if (keys == null) {
            throw new IllegalStateException("provider '" + provider.name() + "' (" + provider.getClass().getName()
                    + ") returned null from configKeys()");
        }
        return keys;
    }

    /** Loaded on first use, so that a runtime that never parses a broker configuration never scans. */
    private static final class Installed {
        static final PluginCatalog CATALOG = new PluginCatalog(ProviderRegistry.load(StorageBackendProvider.class),
                ProviderRegistry.load(FlushPolicyProvider.class), ProviderRegistry.load(ReplicationStrategyProvider.class));
    }
}
