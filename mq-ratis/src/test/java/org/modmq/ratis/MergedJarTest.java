package org.modmq.ratis;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.module.ModuleDescriptor;
import java.lang.module.ModuleFinder;
import java.lang.module.ModuleReference;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The merged jar, as the build leaves it in {@code target/}: one automatic module named
 * {@code org.apache.ratis} whose packages all start with that name, holding the server, its Netty RPC
 * and the shaded third-party classes.
 */
class MergedJarTest {

    private static Path mergedJar() {
        Path target = Path.of(System.getProperty("modmq.ratis.jar", "target/mq-ratis-0.1.0-SNAPSHOT.jar"));
        assertThat(target).as("the merged jar (built in initialize)").exists();
        return target;
    }

    private static ModuleDescriptor descriptor() {
        Set<ModuleReference> modules = ModuleFinder.of(mergedJar()).findAll();
        assertThat(modules).hasSize(1);
        return modules.iterator().next().descriptor();
    }

    @Test
    void isAnAutomaticModuleNamedOrgApacheRatis() {
        ModuleDescriptor descriptor = descriptor();
        assertThat(descriptor.isAutomatic()).isTrue();
        assertThat(descriptor.name()).isEqualTo("org.apache.ratis");
    }

    @Test
    void everyPackageStartsWithTheModuleName() {
        assertThat(descriptor().packages()).allMatch(p -> p.equals("org.apache.ratis") || p.startsWith("org.apache.ratis."));
    }

    @Test
    void holdsTheServerTheNettyRpcAndTheShadedLibraries() {
        Set<String> packages = descriptor().packages();
        assertThat(packages).contains("org.apache.ratis.server", "org.apache.ratis.server.impl",
                "org.apache.ratis.server.raftlog.segmented", "org.apache.ratis.netty",
                "org.apache.ratis.statemachine.impl", "org.apache.ratis.metrics.impl",
                "org.apache.ratis.thirdparty.io.netty.channel", "org.apache.ratis.thirdparty.com.google.protobuf");
    }

    @Test
    void servicesOnlyNameProvidersInsideTheJar() throws Exception {
        Set<String> provided = descriptor().provides().stream().map(ModuleDescriptor.Provides::service)
                .collect(Collectors.toSet());
        assertThat(provided).contains("org.apache.ratis.metrics.MetricRegistries")
                .allMatch(service -> service.startsWith("org.apache.ratis."));
        assertThat(Files.size(mergedJar())).as("size in bytes").isLessThan(30L * 1024 * 1024);
    }
}
