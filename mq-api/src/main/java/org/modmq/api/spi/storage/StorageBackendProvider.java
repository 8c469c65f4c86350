package org.modmq.api.spi.storage;

import org.modmq.api.config.PluginConfig;
import org.modmq.api.spi.NamedProvider;
import org.modmq.api.spi.PluginContext;

/** Entry point of a storage plugin, chosen by {@code storeBackend=<name>}. Stateless and thread-safe. */
public interface StorageBackendProvider extends NamedProvider {

    /**
     * Creates a backend. It may probe the file system under {@link PluginContext#storeRoot()} and fail
     * early (for example when O_DIRECT is refused) with a message that names the path and the cause. The
     * runtime calls {@link StorageBackend#start()} next, on the same thread, before opening a segment.
     *
     * @param config this provider's declared keys, parsed and checked, and the broker's settings
     * @throws StorageException when the backend cannot work here
     */
    StorageBackend create(PluginConfig config, PluginContext context);
}
