package org.modmq.store.mmap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.buffer.UnpooledByteBufAllocator;
import java.io.IOException;
import java.io.InputStream;
import java.lang.module.ModuleDescriptor;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.modmq.api.config.ConfigException;
import org.modmq.api.config.ConfigValues;
import org.modmq.api.config.PluginConfig;
import org.modmq.api.spi.PluginContext;
import org.modmq.api.spi.ProviderRegistry;
import org.modmq.api.spi.storage.Segment;
import org.modmq.api.spi.storage.StorageBackend;
import org.modmq.api.spi.storage.StorageBackendProvider;

class MmapStorageBackendProviderTest {

    private static final java.util.List<org.modmq.api.config.ConfigKey> KEYS =
            new MmapStorageBackendProvider().configKeys();

    private static final ScheduledExecutorService SCHEDULER = Executors.newSingleThreadScheduledExecutor();

    @TempDir
    Path storeRoot;

    @AfterAll
    static void stopScheduler() {
        SCHEDULER.shutdownNow();
    }

    private PluginContext context() {
        return new PluginContext(Clock.systemUTC(), SCHEDULER, UnpooledByteBufAllocator.DEFAULT, storeRoot);
    }

    @Test
    void registryFindsMmapOnModulePath() {
        assertThat(MmapStorageBackendProvider.class.getModule().isNamed()).as("running on the module path").isTrue();
        StorageBackendProvider provider = ProviderRegistry.load(StorageBackendProvider.class).get("mmap");
        assertThat(provider).isInstanceOf(MmapStorageBackendProvider.class);
        assertThat(provider.getClass().getModule().getName()).isEqualTo("org.modmq.store.mmap");
    }

    @Test
    void moduleExportsNothingAndProvidesWhatServicesFileLists() throws IOException {
        ModuleDescriptor descriptor = MmapStorageBackendProvider.class.getModule().getDescriptor();
        assertThat(descriptor.exports()).isEmpty();
        assertThat(descriptor.provides()).singleElement().satisfies(provides -> {
            assertThat(provides.service()).isEqualTo(StorageBackendProvider.class.getName());
            assertThat(provides.providers()).containsExactly(MmapStorageBackendProvider.class.getName());
        });
        try (InputStream in = MmapStorageBackendProvider.class.getModule()
                .getResourceAsStream("META-INF/services/" + StorageBackendProvider.class.getName())) {
            assertThat(in).as("META-INF/services file").isNotNull();
            List<String> lines = new String(in.readAllBytes(), StandardCharsets.UTF_8).lines()
                    .map(String::trim).filter(line -> !line.isEmpty() && !line.startsWith("#")).toList();
            assertThat(lines).containsExactly(MmapStorageBackendProvider.class.getName());
        }
    }

    @Test
    void warmsSegmentsWhenConfigured() {
        ConfigValues config = ConfigValues.empty().with(MmapStorageBackendProvider.WARM_KEY, "true");
        try (StorageBackend backend = new MmapStorageBackendProvider().create(PluginConfig.of(KEYS, config), context());
             Segment segment = backend.open(storeRoot.resolve("warm"), 8192)) {
            assertThat(backend.name()).isEqualTo("mmap");
            assertThat(segment.capacity()).isEqualTo(8192);
        }
    }

    @Test
    void rejectsNonBooleanWarmSetting() {
        ConfigValues config = ConfigValues.empty().with(MmapStorageBackendProvider.WARM_KEY, "yes");
        assertThatThrownBy(() -> new MmapStorageBackendProvider().create(PluginConfig.of(KEYS, config), context()))
                .isInstanceOf(ConfigException.class).hasMessageContaining(MmapStorageBackendProvider.WARM_KEY);
    }

    @Test
    void takesChunkSizeAndIdleBytesFromTheConfiguration() {
        ConfigValues config = ConfigValues.empty().with(MmapStorageBackendProvider.CHUNK_SIZE_KEY, "4096")
                .with(MmapStorageBackendProvider.IDLE_BYTES_KEY, "0");
        try (StorageBackend backend = new MmapStorageBackendProvider().create(PluginConfig.of(KEYS, config), context())) {
            MmapSegment segment = (MmapSegment) backend.open(storeRoot.resolve("chunks"), 3 * 4096);
            segment.read(0, 1).release();
            segment.read(2 * 4096, 1).release();
            // Mapping the third chunk retired the first one: 4096-byte chunks and no idle one kept.
            assertThat(segment.mappedChunks()).isEqualTo(1);
            segment.close();
        }
    }

    @Test
    void rejectsNonPositiveChunkSizeAndNegativeIdleBytes() {
        ConfigValues zero = ConfigValues.empty().with(MmapStorageBackendProvider.CHUNK_SIZE_KEY, "0");
        assertThatThrownBy(() -> new MmapStorageBackendProvider().create(PluginConfig.of(KEYS, zero), context()))
                .isInstanceOf(ConfigException.class).hasMessageContaining(MmapStorageBackendProvider.CHUNK_SIZE_KEY);
        ConfigValues negative = ConfigValues.empty().with(MmapStorageBackendProvider.IDLE_BYTES_KEY, "-1");
        assertThatThrownBy(() -> new MmapStorageBackendProvider().create(PluginConfig.of(KEYS, negative), context()))
                .isInstanceOf(ConfigException.class).hasMessageContaining(MmapStorageBackendProvider.IDLE_BYTES_KEY);
    }
}
