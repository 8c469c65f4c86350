package org.modmq.store.mmap;

import java.util.List;
import java.util.Objects;
import org.modmq.api.config.ConfigKey;
import org.modmq.api.config.PluginConfig;
import org.modmq.api.spi.PluginContext;
import org.modmq.api.spi.storage.StorageBackend;
import org.modmq.api.spi.storage.StorageBackendProvider;

/**
 * Provider of the {@code mmap} storage backend ({@code storeBackend=mmap}).
 *
 * <p>Declares one key ({@link #configKeys()}): {@code warmMapedFileEnable} (boolean, default
 * {@code false}, RocketMQ's spelling): fault every page of a segment into memory when it is opened.
 *
 * <p>Stateless and thread-safe; the public no-arg constructor is what {@link java.util.ServiceLoader}
 * calls on the class path.
 */
public final class MmapStorageBackendProvider implements StorageBackendProvider {

    /** The provider name. */
    public static final String NAME = "mmap";

    /** Configuration key that enables warming segments at open. */
    public static final String WARM_KEY = "warmMapedFileEnable";

    private static final List<ConfigKey> KEYS = List.of(ConfigKey.bool(WARM_KEY, false,
            "mmap backend: touch every page of a segment when it is opened, so that first writes do not fault "
                    + "(RocketMQ's spelling)."));

    /** Creates the provider; it holds no state. */
    public MmapStorageBackendProvider() {
        // Required by ServiceLoader on the class path.
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public List<ConfigKey> configKeys() {
        return KEYS;
    }

    /**
     * Creates a backend. It needs no probing: every JDK file system that supports {@code FileChannel.map}
     * works, and unmapping falls back to the garbage collector when {@code sun.misc.Unsafe} is missing.
     */
    @Override
    public StorageBackend create(PluginConfig config, PluginContext context) {
        Objects.requireNonNull(config, "config");
        Objects.requireNonNull(context, "context");
        return new MmapStorageBackend(config.bool(WARM_KEY));
    }
}
