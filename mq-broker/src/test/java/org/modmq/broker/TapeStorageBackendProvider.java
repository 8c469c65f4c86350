package org.modmq.broker;

import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.modmq.api.config.ConfigKey;
import org.modmq.api.config.PluginConfig;
import org.modmq.api.spi.PluginContext;
import org.modmq.api.spi.ProviderRegistry;
import org.modmq.api.spi.storage.Segment;
import org.modmq.api.spi.storage.StorageBackend;
import org.modmq.api.spi.storage.StorageBackendProvider;

/**
 * A third-party storage plugin as a test defines one: {@code storeBackend=tape}, two keys of its own, the
 * real I/O done by the mmap backend. Remembers the configuration it was created with.
 */
final class TapeStorageBackendProvider implements StorageBackendProvider {

    static final String LABEL_KEY = "tapeLabel";
    static final String SEGMENTS_KEY = "tapeSegments";

    final AtomicReference<PluginConfig> created = new AtomicReference<>();
    volatile boolean started;

    @Override
    public String name() {
        return "tape";
    }

    @Override
    public List<ConfigKey> configKeys() {
        return List.of(ConfigKey.string(LABEL_KEY, "unlabelled", "the reel's label"),
                ConfigKey.integer(SEGMENTS_KEY, 4, 1, 64, "segments per reel"));
    }

    @Override
    public StorageBackend create(PluginConfig config, PluginContext context) {
        created.set(config);
        StorageBackendProvider mmap = ProviderRegistry.load(StorageBackendProvider.class).get("mmap");
        StorageBackend inner = mmap.create(PluginConfig.of(mmap.configKeys(), config.values()), context);
        return new StorageBackend() {
            @Override
            public String name() {
                return "tape";
            }

            @Override
            public void start() {
                inner.start();
                started = true;
            }

            @Override
            public Segment open(java.nio.file.Path file, int capacity) {
                return inner.open(file, capacity);
            }

            @Override
            public void close() {
                inner.close();
            }
        };
    }
}
