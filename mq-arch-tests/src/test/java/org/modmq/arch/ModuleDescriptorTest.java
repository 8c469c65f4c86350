package org.modmq.arch;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.lang.module.ModuleDescriptor;
import java.lang.module.ModuleFinder;
import java.lang.module.ModuleReader;
import java.lang.module.ModuleReference;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** Checks every production module's descriptor as it is built (jar or target/classes). */
class ModuleDescriptorTest {

    /** mq-ratis: Apache Ratis merged into one jar, an automatic module by design (it has no module-info). */
    private static final String MERGED_RATIS = "org.apache.ratis";

    private static final Set<String> CLASS_PATH_MODULES = Set.of("mq-arch-tests", "mq-compat-tests", "mq-bench", "mq-jmh",
            "mq-distribution");

    /** Every modmq production module on the test class path, by module name. */
    private static Map<String, ModuleReference> modmqModules() {
        Map<String, ModuleReference> modules = new TreeMap<>();
        for (String entry : System.getProperty("java.class.path").split(java.io.File.pathSeparator)) {
            Path path = Path.of(entry);
            if (!isModmqArtifact(path)) {
                continue;
            }
            for (ModuleReference reference : ModuleFinder.of(path).findAll()) {
                modules.put(reference.descriptor().name(), reference);
            }
        }
        return modules;
    }

    private static boolean isModmqArtifact(Path path) {
        String text = path.toString().replace('\\', '/');
        if (text.contains("/test-classes") || CLASS_PATH_MODULES.stream().anyMatch(text::contains)) {
            return false;
        }
        if (Files.isDirectory(path)) {
            return Files.exists(path.resolve("module-info.class")) && text.contains("/mq-");
        }
        return path.getFileName().toString().startsWith("mq-") && text.endsWith(".jar");
    }

    private static boolean isPlugin(String module) {
        return module.equals("org.modmq.store.mmap") || module.equals("org.modmq.store.direct")
                || module.startsWith("org.modmq.ha.");
    }

    @Test
    void findsTheProductionModules() {
        assertThat(modmqModules()).containsKeys("org.modmq.api", "org.modmq.store", "org.modmq.store.mmap",
                "org.modmq.store.direct", "org.modmq.remoting", "org.modmq.acl", "org.modmq.namesrv", "org.modmq.controller",
                "org.modmq.broker", "org.modmq.launcher", "org.modmq.metrics", "org.modmq.logging", MERGED_RATIS);
    }

    @Test
    void onlyTheLoggingModuleRequiresLogbackAndNothingRequiresIt() {
        modmqModules().forEach((name, reference) -> {
            boolean logback = reference.descriptor().requires().stream()
                    .anyMatch(r -> r.name().startsWith("ch.qos.logback"));
            assertThat(logback).as(name + " requires logback").isEqualTo(name.equals("org.modmq.logging"));
            assertThat(reference.descriptor().requires()).extracting(ModuleDescriptor.Requires::name)
                    .as(name + " requires").doesNotContain("org.modmq.logging");
        });
        assertThat(modmqModules().get("org.modmq.logging").descriptor().exports()).isEmpty();
    }

    @Test
    void onlyTheMetricsModuleRequiresThePrometheusClient() {
        modmqModules().forEach((name, reference) -> {
            boolean prometheus = reference.descriptor().requires().stream()
                    .anyMatch(r -> r.name().startsWith("io.prometheus."));
            assertThat(prometheus).as(name + " requires a Prometheus module").isEqualTo(name.equals("org.modmq.metrics"));
        });
        assertThat(modmqModules().get("org.modmq.metrics").descriptor().exports())
                .extracting(ModuleDescriptor.Exports::source).containsExactly("org.modmq.metrics");
    }

    @Test
    void noProductionModuleIsAutomatic() {
        modmqModules().forEach((name, reference) -> {
            if (!name.equals(MERGED_RATIS)) {
                assertThat(reference.descriptor().isAutomatic()).as(name + " is automatic").isFalse();
            }
        });
    }

    @Test
    void theMergedRatisJarIsTheOneAutomaticModule() {
        assertThat(modmqModules().get(MERGED_RATIS).descriptor().isAutomatic()).isTrue();
    }

    @Test
    void theControllerRequiresRatisAndNoOtherServer() {
        Set<String> requires = modmqModules().get("org.modmq.controller").descriptor().requires().stream()
                .map(ModuleDescriptor.Requires::name).collect(Collectors.toSet());
        assertThat(requires).contains(MERGED_RATIS, "org.modmq.remoting")
                .doesNotContain("org.modmq.broker", "org.modmq.namesrv", "org.modmq.store");
        Set<String> broker = modmqModules().get("org.modmq.broker").descriptor().requires().stream()
                .map(ModuleDescriptor.Requires::name).collect(Collectors.toSet());
        assertThat(broker).doesNotContain("org.modmq.namesrv", "org.modmq.controller", "org.modmq.launcher", MERGED_RATIS);
    }

    @Test
    void packagesStartWithTheModuleName() {
        modmqModules().forEach((name, reference) ->
                assertThat(reference.descriptor().packages()).as(name).allMatch(p -> p.equals(name) || p.startsWith(name + ".")));
    }

    @Test
    void pluginModulesExportNothing() {
        modmqModules().forEach((name, reference) -> {
            if (isPlugin(name)) {
                assertThat(reference.descriptor().exports()).as(name + " exports").isEmpty();
                assertThat(reference.descriptor().provides()).as(name + " provides").isNotEmpty();
            }
        });
    }

    @Test
    void providesMatchesMetaInfServices() throws IOException {
        for (var module : modmqModules().entrySet()) {
            Map<String, Set<String>> declared = new TreeMap<>();
            for (ModuleDescriptor.Provides provides : module.getValue().descriptor().provides()) {
                declared.put(provides.service(), new TreeSet<>(provides.providers()));
            }
            assertThat(servicesFiles(module.getValue())).as(module.getKey() + ": META-INF/services vs provides")
                    .isEqualTo(declared);
        }
    }

    private static Map<String, Set<String>> servicesFiles(ModuleReference reference) throws IOException {
        Map<String, Set<String>> files = new TreeMap<>();
        try (ModuleReader reader = reference.open()) {
            List<String> names = reader.list().filter(n -> n.startsWith("META-INF/services/") && !n.endsWith("/"))
                    .collect(Collectors.toCollection(ArrayList::new));
            for (String name : names) {
                Optional<InputStream> in = reader.open(name);
                if (in.isEmpty()) {
                    continue;
                }
                try (InputStream stream = in.get()) {
                    String text = new String(stream.readAllBytes(), StandardCharsets.UTF_8);
                    Set<String> providers = Arrays.stream(text.split("\n")).map(l -> l.replaceAll("#.*", "").trim())
                            .filter(l -> !l.isEmpty()).collect(Collectors.toCollection(TreeSet::new));
                    files.put(name.substring("META-INF/services/".length()), providers);
                }
            }
        }
        return files;
    }
}
