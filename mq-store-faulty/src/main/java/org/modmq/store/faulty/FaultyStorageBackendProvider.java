package org.modmq.store.faulty;

import java.util.List;
import java.util.Objects;
import org.modmq.api.config.ConfigException;
import org.modmq.api.config.ConfigKey;
import org.modmq.api.config.PluginConfig;
import org.modmq.api.spi.PluginContext;
import org.modmq.api.spi.ProviderRegistry;
import org.modmq.api.spi.storage.StorageBackend;
import org.modmq.api.spi.storage.StorageBackendProvider;
import org.modmq.store.faulty.control.FaultyStorage;

/**
 * Provider of the {@code faulty} test backend ({@code storeBackend=faulty}).
 *
 * <p>Declares one key: {@code faultyDelegate} (default {@code mmap}): the provider name of the backend
 * that does the real I/O; any provider on the module path but {@code faulty} itself. The delegate's own
 * keys are parsed from the same settings with its declarations.
 * The backend obeys the {@link org.modmq.store.faulty.control.FaultControl} that
 * {@link FaultyStorage#control(java.nio.file.Path)} returns for the store root of the context.
 *
 * <p>Stateless and thread-safe; the public no-arg constructor is what {@link java.util.ServiceLoader}
 * calls on the class path.
 */
public final class FaultyStorageBackendProvider implements StorageBackendProvider {

    private static final List<ConfigKey> KEYS = List.of(ConfigKey.string(FaultyStorage.DELEGATE_KEY, "mmap",
            "faulty test backend (not in the distribution): the backend that does the real I/O."));

    /** Creates the provider; it holds no state. */
    public FaultyStorageBackendProvider() {
        // Required by ServiceLoader on the class path.
    }

    @Override
    public String name() {
        return FaultyStorage.NAME;
    }

    @Override
    public List<ConfigKey> configKeys() {
        return KEYS;
    }

    /**
     * Creates the delegate backend by name and wraps it.
     *
     * @throws ConfigException when {@code faultyDelegate} names this provider
     * @throws org.modmq.api.spi.UnknownProviderException when no provider has that name
     */
    @Override
    public StorageBackend create(PluginConfig config, PluginContext context) {
        Objects.requireNonNull(config, "config");
        Objects.requireNonNull(context, "context");
        String delegate = config.string(FaultyStorage.DELEGATE_KEY);
        if (delegate.equals(FaultyStorage.NAME)) {
            throw new ConfigException(FaultyStorage.DELEGATE_KEY + "=" + delegate
                    + " cannot wrap itself; name a real backend (mmap, direct)");
        }
        StorageBackendProvider inner = ProviderRegistry.load(StorageBackendProvider.class).get(delegate);
        StorageBackend backend = inner.create(PluginConfig.of(inner.configKeys(), config.values()), context);
        backend.start();
        return FaultyStorage.wrap(backend, FaultyStorage.control(context.storeRoot()));
    }
}
