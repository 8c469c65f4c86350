package org.modmq.broker.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.modmq.api.config.ConfigException;
import org.modmq.api.config.PluginConfig;
import org.modmq.api.spi.PluginContext;
import org.modmq.api.spi.ProviderRegistry;
import org.modmq.api.spi.flush.FlushContext;
import org.modmq.api.spi.flush.FlushPolicy;
import org.modmq.api.spi.flush.FlushPolicyProvider;
import org.modmq.api.spi.replication.ReplicationStrategyProvider;
import org.modmq.api.spi.storage.StorageBackend;
import org.modmq.api.spi.storage.StorageBackendProvider;
import org.modmq.broker.config.BrokerConfig;
import org.modmq.broker.testing.TestConfigs;

class PluginSelectionTest {

    @TempDir
    Path dir;

    private static StorageBackendProvider storage(String name) {
        return new StorageBackendProvider() {
            @Override
            public String name() {
                return name;
            }

            @Override
            public StorageBackend create(PluginConfig config, PluginContext context) {
                throw new UnsupportedOperationException("not used");
            }
        };
    }

    private static FlushPolicyProvider flush(String name) {
        return new FlushPolicyProvider() {
            @Override
            public String name() {
                return name;
            }

            @Override
            public FlushPolicy create(PluginConfig config, FlushContext context) {
                throw new UnsupportedOperationException("not used");
            }
        };
    }

    private final PluginSelection selection = new PluginSelection(
            ProviderRegistry.of(StorageBackendProvider.class, List.of(storage("mmap"), storage("direct"))),
            ProviderRegistry.of(FlushPolicyProvider.class, List.of(flush("SYNC_FLUSH"), flush("ASYNC_FLUSH"))),
            ProviderRegistry.of(ReplicationStrategyProvider.class, List.<ReplicationStrategyProvider>of()));

    @Test
    void picksProvidersByTheirConfiguredNames() {
        BrokerConfig config = TestConfigs.broker(dir, "storeBackend", "direct", "flushDiskType", "SYNC_FLUSH");
        assertThat(selection.storageBackend(config).name()).isEqualTo("direct");
        assertThat(selection.flushPolicy(config).name()).isEqualTo("SYNC_FLUSH");
    }

    @Test
    void anUnknownNameStopsStartUpListingThePresentNames() {
        BrokerConfig config = TestConfigs.broker(dir, "storeBackend", "tape");
        assertThatThrownBy(() -> selection.storageBackend(config)).isInstanceOf(ConfigException.class)
                .hasMessageContainingAll("storeBackend=tape", "test", "direct", "mmap");
        assertThatThrownBy(() -> selection.replicationStrategy(config)).isInstanceOf(ConfigException.class)
                .hasMessageContainingAll("haStrategy=pull", "[]");
    }
}
