package org.modmq.api.spi.storage;

import org.modmq.api.config.ConfigValues;
import org.modmq.api.spi.NamedProvider;
import org.modmq.api.spi.PluginContext;

/** Entry point of a storage plugin, chosen by {@code storeBackend=<name>}. */
public interface StorageBackendProvider extends NamedProvider {

    /**
     * Creates a backend. It may probe the file system under {@link PluginContext#storeRoot()} and fail
     * early (for example when O_DIRECT is refused) with a message that names the path and the cause.
     *
     * @param config the broker's settings; a backend reads only its own keys
     * @throws StorageException when the backend cannot work here
     */
    StorageBackend create(ConfigValues config, PluginContext context);
}
