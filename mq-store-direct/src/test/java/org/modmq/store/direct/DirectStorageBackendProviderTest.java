package org.modmq.store.direct;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.io.InputStream;
import java.lang.module.ModuleDescriptor;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.modmq.api.config.ConfigException;
import org.modmq.api.config.ConfigValues;
import org.modmq.api.config.PluginConfig;
import org.modmq.api.spi.ProviderRegistry;
import org.modmq.api.spi.storage.StorageBackend;
import org.modmq.api.spi.storage.StorageBackendProvider;
import org.modmq.api.spi.storage.StorageException;

@Timeout(30)
class DirectStorageBackendProviderTest {

    private static final String SPI = StorageBackendProvider.class.getName();

    @TempDir
    Path storeRoot;

    private final TestContexts contexts = new TestContexts();

    @AfterEach
    void stopScheduler() {
        contexts.close();
    }

    @Test
    void registryFindsDirectByName() {
        ProviderRegistry<StorageBackendProvider> registry = ProviderRegistry.load(StorageBackendProvider.class);
        assertThat(registry.names()).contains("direct");
        assertThat(registry.get("direct")).isInstanceOf(DirectStorageBackendProvider.class);
    }

    @Test
    void moduleExportsNothingAndProvidesWhatServicesFileLists() throws IOException {
        Module module = DirectStorageBackendProvider.class.getModule();
        assertThat(module.isNamed()).isTrue();
        ModuleDescriptor descriptor = module.getDescriptor();
        assertThat(descriptor.exports()).isEmpty();
        assertThat(descriptor.provides()).singleElement().satisfies(provides -> {
            assertThat(provides.service()).isEqualTo(SPI);
            assertThat(provides.providers()).containsExactly(DirectStorageBackendProvider.class.getName());
        });
        try (InputStream in = module.getResourceAsStream("META-INF/services/" + SPI)) {
            assertThat(in).as("META-INF/services file").isNotNull();
            assertThat(new String(in.readAllBytes(), StandardCharsets.UTF_8).strip())
                    .isEqualTo(DirectStorageBackendProvider.class.getName());
        }
    }

    @Test
    void createdBackendIsNamedDirectAndLeavesNoProbeFile() throws IOException {
        try (StorageBackend backend = new DirectStorageBackendProvider().create(PluginConfig.of(DirectConfig.KEYS, ConfigValues.empty()),
                contexts.contextFor(storeRoot))) {
            assertThat(backend.name()).isEqualTo("direct");
            assertThat(backend.holdsWritesInProcess()).as("staged blocks die with the process until forced").isTrue();
        }
        try (Stream<Path> left = Files.list(storeRoot)) {
            assertThat(left).as("files left by the probe").isEmpty();
        }
    }

    @Test
    void refusalOfDirectIoNamesPathAndCause() throws IOException {
        IOException einval = new IOException("Invalid argument");
        DirectStorageBackendProvider provider = new DirectStorageBackendProvider((file, options) -> {
            throw einval;
        });
        assertThatThrownBy(() -> provider.create(PluginConfig.of(DirectConfig.KEYS, ConfigValues.empty()), contexts.contextFor(storeRoot)))
                .isInstanceOf(StorageException.class)
                .hasMessageContaining("O_DIRECT is not supported")
                .hasMessageContaining(storeRoot.toString())
                .hasMessageContaining("Invalid argument")
                .hasCause(einval);
        try (Stream<Path> left = Files.list(storeRoot)) {
            assertThat(left).as("files left by the failed probe").isEmpty();
        }
    }

    @Test
    void jdkWithoutDirectOptionIsReportedAsRefusal() {
        DirectStorageBackendProvider provider = new DirectStorageBackendProvider((file, options) -> {
            throw new UnsupportedOperationException("DIRECT");
        });
        assertThatThrownBy(() -> provider.create(PluginConfig.of(DirectConfig.KEYS, ConfigValues.empty()), contexts.contextFor(storeRoot)))
                .isInstanceOf(StorageException.class)
                .hasMessageContaining("O_DIRECT is not supported")
                .hasMessageContaining(storeRoot.toString())
                .hasRootCauseInstanceOf(UnsupportedOperationException.class);
    }

    /** Linux before 6.6 refuses O_DIRECT on tmpfs; newer kernels accept it, and then this test is skipped. */
    @Test
    void tmpfsRefusalIsClearWhereTheKernelRefuses() throws IOException {
        Path shm = Path.of("/dev/shm");
        assumeTrue(Files.isDirectory(shm) && Files.isWritable(shm) && "tmpfs".equals(Files.getFileStore(shm).type()),
                "no writable tmpfs at /dev/shm");
        Path root = Files.createTempDirectory(shm, "modmq-direct-");
        try {
            StorageBackend backend;
            try {
                backend = new DirectStorageBackendProvider().create(PluginConfig.of(DirectConfig.KEYS, ConfigValues.empty()), contexts.contextFor(root));
            } catch (StorageException refused) {
                assertThat(refused).hasMessageContaining("O_DIRECT is not supported")
                        .hasMessageContaining(root.toString()).hasMessageContaining("tmpfs");
                return;
            }
            backend.close();
            assumeTrue(false, "this kernel supports O_DIRECT on tmpfs");
        } finally {
            try (Stream<Path> files = Files.walk(root)) {
                for (Path path : files.sorted(Comparator.reverseOrder()).toList()) {
                    Files.deleteIfExists(path);
                }
            }
        }
    }

    @Test
    void malformedSettingsNameTheKey() {
        DirectStorageBackendProvider provider = new DirectStorageBackendProvider();
        assertThatThrownBy(() -> provider.create(PluginConfig.of(DirectConfig.KEYS, ConfigValues.empty().with("directWriteBufferBytes", "0")),
                contexts.contextFor(storeRoot)))
                .isInstanceOf(ConfigException.class).hasMessageContaining("directWriteBufferBytes");
        assertThatThrownBy(() -> provider.create(PluginConfig.of(DirectConfig.KEYS, ConfigValues.empty().with("directReadCacheBytes", "lots")),
                contexts.contextFor(storeRoot)))
                .isInstanceOf(ConfigException.class).hasMessageContaining("directReadCacheBytes");
        assertThatThrownBy(() -> provider.create(PluginConfig.of(DirectConfig.KEYS, ConfigValues.empty().with("directReadCacheBytes", "-1")),
                contexts.contextFor(storeRoot)))
                .isInstanceOf(ConfigException.class).hasMessageContaining("directReadCacheBytes");
    }

    @Test
    void readsItsSettings() {
        DirectConfig config = DirectConfig.from(ConfigValues.empty().with("directWriteBufferBytes", "65536")
                .with("directReadCacheBytes", "0").with("storeBackend", "direct"));
        assertThat(config).isEqualTo(new DirectConfig(65536, 0));
        assertThat(DirectConfig.from(ConfigValues.empty()))
                .isEqualTo(new DirectConfig(4 * 1024 * 1024, 8L * 1024 * 1024));
    }

    @Test
    void rejectsCapacityThatIsNotWholeBlocks() {
        try (StorageBackend backend = new DirectStorageBackendProvider().create(PluginConfig.of(DirectConfig.KEYS, ConfigValues.empty()),
                contexts.contextFor(storeRoot))) {
            Path file = storeRoot.resolve("odd");
            assertThatThrownBy(() -> backend.open(file, 5000))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("5000")
                    .hasMessageContaining("not a multiple of the block size");
            assertThat(file).doesNotExist();
        }
    }
}
