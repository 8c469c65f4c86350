package org.modmq.testkit.process;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BuiltDistributionTest {

    @TempDir
    Path dir;

    @Test
    void acceptsADirectoryWithTheScriptsAndLib() throws Exception {
        Files.createDirectories(dir.resolve("lib"));
        Files.createDirectories(dir.resolve("bin"));
        for (String script : BuiltDistribution.SCRIPTS) {
            Files.writeString(dir.resolve("bin").resolve(script), "#!/bin/sh\n");
            Files.setPosixFilePermissions(dir.resolve("bin").resolve(script), PosixFilePermissions.fromString("rwxr-xr-x"));
        }
        BuiltDistribution distribution = BuiltDistribution.at(dir.resolve("lib/.."));

        assertThat(distribution.home()).isEqualTo(dir.toAbsolutePath().normalize());
        assertThat(distribution.script("mqbroker")).isEqualTo(dir.resolve("bin/mqbroker").toString());
        assertThat(distribution.lib()).isEqualTo(dir.resolve("lib"));
        assertThat(distribution.plugins()).isEqualTo(dir.resolve("plugins"));
    }

    @Test
    void refusesADirectoryThatIsNotBuilt() throws Exception {
        Files.createDirectories(dir.resolve("bin"));
        assertThatThrownBy(() -> BuiltDistribution.at(dir)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("build mq-distribution first");
    }

    @Test
    void launcherEnvironmentNamesThisJvmTheHeapAndTheLogs() {
        assertThat(BuiltDistribution.launcherEnvironment("-Xmx64m", dir.resolve("logs")))
                .containsEntry("JAVA_HOME", System.getProperty("java.home"))
                .containsEntry("JAVA_HEAP_OPTS", "-Xmx64m")
                .containsEntry("MODMQ_LOG_DIR", dir.resolve("logs").toString())
                .hasSize(3);
    }
}
