package org.modmq.examples.filechannel;

import org.modmq.api.config.PluginConfig;
import org.modmq.api.spi.PluginContext;
import org.modmq.api.spi.storage.StorageBackend;
import org.modmq.api.spi.storage.StorageBackendProvider;

/** Chosen with {@code storeBackend=filechannel}. Reads no keys of its own. */
public final class FileChannelStorageProvider implements StorageBackendProvider {

    /** The name configuration uses. */
    public static final String NAME = "filechannel";

    /** For {@link java.util.ServiceLoader}. */
    public FileChannelStorageProvider() {
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public StorageBackend create(PluginConfig config, PluginContext context) {
        return new FileChannelBackend();
    }
}
