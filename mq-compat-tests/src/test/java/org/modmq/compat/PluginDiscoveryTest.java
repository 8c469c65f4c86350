package org.modmq.compat;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.lang.module.Configuration;
import java.lang.module.ModuleFinder;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * What the distribution's {@code plugins/} offers, found the two ways the launchers can run it: the
 * module path (service binding through {@code provides}) and the class path
 * ({@code META-INF/services}). The modmq jars are loaded in an isolated layer or loader, never on
 * this module's class path (which holds the stock client's Netty 4.1).
 */
class PluginDiscoveryTest {

    private static final String STORAGE_SPI = "org.modmq.api.spi.storage.StorageBackendProvider";
    private static final String FLUSH_SPI = "org.modmq.api.spi.flush.FlushPolicyProvider";

    private final Distribution distribution = Distribution.located();

    @Test
    void modulePathBindsEveryPluginInPluginsDirectory() throws Exception {
        ModuleLayer layer = layer(ModuleFinder.of(distribution.lib(), distribution.plugins()));

        assertThat(providers(layer, STORAGE_SPI)).isEqualTo(Map.of(
                "direct", "org.modmq.store.direct", "mmap", "org.modmq.store.mmap"));
        assertThat(providers(layer, FLUSH_SPI)).isEqualTo(Map.of(
                "ASYNC_FLUSH", "org.modmq.store", "SYNC_FLUSH", "org.modmq.store"));
    }

    @Test
    void removingAPluginJarRemovesTheChoice() throws Exception {
        Path directOnly = jars(distribution.plugins()).stream()
                .filter(jar -> jar.getFileName().toString().startsWith("mq-store-direct-"))
                .findFirst().orElseThrow();
        ModuleLayer layer = layer(ModuleFinder.of(distribution.lib(), directOnly));

        assertThat(providers(layer, STORAGE_SPI)).isEqualTo(Map.of("direct", "org.modmq.store.direct"));
    }

    @Test
    void classPathFindsTheSamePluginsThroughServiceFiles() throws Exception {
        List<URL> urls = new ArrayList<>();
        for (Path jar : jars(distribution.lib())) {
            urls.add(jar.toUri().toURL());
        }
        for (Path jar : jars(distribution.plugins())) {
            urls.add(jar.toUri().toURL());
        }
        try (URLClassLoader loader = new URLClassLoader(urls.toArray(URL[]::new), ClassLoader.getPlatformClassLoader())) {
            Class<?> storage = loader.loadClass(STORAGE_SPI);
            Class<?> flush = loader.loadClass(FLUSH_SPI);
            assertThat(names(storage, ServiceLoader.load(storage, loader))).isEqualTo(Map.of(
                    "direct", "unnamed", "mmap", "unnamed"));
            assertThat(names(flush, ServiceLoader.load(flush, loader))).isEqualTo(Map.of(
                    "ASYNC_FLUSH", "unnamed", "SYNC_FLUSH", "unnamed"));
        }
    }

    private static ModuleLayer layer(ModuleFinder finder) {
        ModuleLayer boot = ModuleLayer.boot();
        Configuration configuration = boot.configuration().resolveAndBind(finder, ModuleFinder.of(), Set.of("org.modmq.api"));
        return boot.defineModulesWithOneLoader(configuration, ClassLoader.getPlatformClassLoader());
    }

    private static Map<String, String> providers(ModuleLayer layer, String spi) throws ReflectiveOperationException {
        Class<?> type = layer.findLoader("org.modmq.api").loadClass(spi);
        return names(type, ServiceLoader.load(layer, type));
    }

    /** Provider name to the name of its module ("unnamed" on the class path). */
    private static Map<String, String> names(Class<?> spi, ServiceLoader<?> loader) throws ReflectiveOperationException {
        Map<String, String> names = new TreeMap<>();
        for (Object provider : loader) {
            // Called through the exported SPI type: plugin packages are not exported.
            String name = (String) spi.getMethod("name").invoke(provider);
            Module module = provider.getClass().getModule();
            names.put(name, module.isNamed() ? module.getName() : "unnamed");
        }
        return names;
    }

    private static List<Path> jars(Path dir) throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            return files.filter(file -> file.getFileName().toString().endsWith(".jar")).sorted().toList();
        }
    }
}
