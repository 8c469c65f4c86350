package org.modmq.compat;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.modmq.testkit.process.ChildProcess;

/**
 * The launch scripts' memory rule: without {@code JAVA_HEAP_OPTS} heap and direct memory come from the
 * container's memory limit (a fake cgroup tree, {@code MODMQ_CGROUP_ROOT}) or the RAM (a fake
 * {@code MODMQ_MEMINFO}), clamped. The scripts of the built distribution run against a fake
 * {@code JAVA_HOME} whose {@code java} only writes down its arguments: no JVM starts.
 */
class LauncherMemoryRuleTest {

    private static final long MIB = 1024 * 1024;
    private static final long HOST_RAM_KB = 24L * 1024 * 1024;

    /** Variables of the rule a developer's shell might hold. */
    private static final Set<String> CLEARED = Set.of("JAVA_HEAP_OPTS", "MODMQ_MEMORY_MB", "MODMQ_CGROUP_ROOT",
            "MODMQ_MEMINFO", "JAVA_HOME");

    @TempDir
    Path dir;

    private Path home;
    private Path cgroup;
    private Path meminfo;
    private Path arguments;
    private final Map<String, String> environment = new HashMap<>();

    @BeforeEach
    void fakeDistributionJavaAndMachine() throws IOException {
        home = dir.resolve("modmq");
        Path bin = Files.createDirectories(home.resolve("bin"));
        try (Stream<Path> scripts = Files.list(Distribution.located().home().resolve("bin"))) {
            for (Path script : scripts.toList()) {
                Files.copy(script, bin.resolve(script.getFileName()), StandardCopyOption.COPY_ATTRIBUTES);
            }
        }
        Files.createDirectories(home.resolve("lib"));
        Files.createDirectories(home.resolve("plugins"));
        arguments = dir.resolve("java-arguments");
        Path java = Files.createDirectories(dir.resolve("jdk/bin")).resolve("java");
        Files.writeString(java, "#!/bin/sh\nprintf '%s\\n' \"$@\" > '" + arguments + "'\n");
        assertThat(java.toFile().setExecutable(true)).isTrue();
        cgroup = Files.createDirectories(dir.resolve("cgroup"));
        meminfo = dir.resolve("meminfo");
        writeMeminfo(HOST_RAM_KB);
        environment.put("JAVA_HOME", dir.resolve("jdk").toString());
        environment.put("MODMQ_CGROUP_ROOT", cgroup.toString());
        environment.put("MODMQ_MEMINFO", meminfo.toString());
        environment.put("MODMQ_LOG_DIR", dir.resolve("logs").toString());
        environment.put("MODMQ_CDS", "off");
    }

    @Test
    void cgroupV2LimitGivesTheBrokerAQuarterForHeapAndForDirectMemory() throws Exception {
        write(cgroup.resolve("memory.max"), Long.toString(2048 * MIB));

        assertThat(launch("mqbroker")).containsSubsequence("-Xms64m", "-Xmx512m", "-XX:MaxDirectMemorySize=512m",
                "-XX:+UseG1GC");
        assertThat(launch("modmq")).containsSubsequence("-Xms64m", "-Xmx512m", "-XX:MaxDirectMemorySize=512m");
        assertThat(launch("mqnamesrv")).containsSubsequence("-Xms32m", "-Xmx256m", "-XX:MaxDirectMemorySize=128m",
                "-XX:+UseSerialGC");
        assertThat(launch("mqcontroller")).containsSubsequence("-Xms32m", "-Xmx256m", "-XX:MaxDirectMemorySize=128m");
    }

    @Test
    void cgroupV1LimitIsUsedAndItsUnlimitedValueMeansTheRam() throws Exception {
        Path v1 = Files.createDirectories(cgroup.resolve("memory"));
        write(v1.resolve("memory.limit_in_bytes"), Long.toString(1024 * MIB));
        assertThat(launch("mqbroker")).containsSubsequence("-Xms64m", "-Xmx256m", "-XX:MaxDirectMemorySize=256m");

        write(v1.resolve("memory.limit_in_bytes"), "9223372036854771712");
        writeMeminfo(3L * 1024 * 1024);
        assertThat(launch("mqbroker")).containsSubsequence("-Xms64m", "-Xmx768m", "-XX:MaxDirectMemorySize=768m");
    }

    @Test
    void noLimitOnALargeHostIsCapped() throws Exception {
        write(cgroup.resolve("memory.max"), "max");

        assertThat(launch("mqbroker")).containsSubsequence("-Xms64m", "-Xmx1024m", "-XX:MaxDirectMemorySize=1024m");
        assertThat(launch("mqnamesrv")).containsSubsequence("-Xms32m", "-Xmx256m", "-XX:MaxDirectMemorySize=256m");
    }

    @Test
    void aSmallContainerGetsTheFloors() throws Exception {
        write(cgroup.resolve("memory.max"), Long.toString(200 * MIB));

        assertThat(launch("mqbroker")).containsSubsequence("-Xms64m", "-Xmx64m", "-XX:MaxDirectMemorySize=64m");
        assertThat(launch("mqnamesrv")).containsSubsequence("-Xms32m", "-Xmx32m", "-XX:MaxDirectMemorySize=32m");
    }

    @Test
    void modmqMemoryMbOverridesTheLimitAndJavaHeapOptsReplacesTheRule() throws Exception {
        write(cgroup.resolve("memory.max"), Long.toString(2048 * MIB));
        environment.put("MODMQ_MEMORY_MB", "512");
        assertThat(launch("mqbroker")).containsSubsequence("-Xms64m", "-Xmx128m", "-XX:MaxDirectMemorySize=128m");

        environment.put("JAVA_HEAP_OPTS", "-Xmx300m -XX:+UseSerialGC");
        List<String> options = launch("mqbroker");
        assertThat(options).containsSubsequence("-Xmx300m", "-XX:+UseSerialGC")
                .noneMatch(option -> option.startsWith("-XX:MaxDirectMemorySize") || option.startsWith("-Xms")
                        || option.equals("-XX:+UseG1GC"));
    }

    @Test
    void aMalformedMemoryOverrideStopsTheLauncher() throws Exception {
        environment.put("MODMQ_MEMORY_MB", "2g");

        Launched launched = run("mqbroker");
        assertThat(launched.status()).isNotZero();
        assertThat(launched.output()).contains("MODMQ_MEMORY_MB=2g is not a whole number of MiB");
        assertThat(arguments).doesNotExist();
    }

    /** Runs {@code bin/<script>} and returns the JVM arguments before the module path. */
    private List<String> launch(String script) throws Exception {
        Files.deleteIfExists(arguments);
        Launched launched = run(script);
        assertThat(launched.status()).as(launched.output()).isZero();
        List<String> all = Files.readAllLines(arguments, StandardCharsets.UTF_8);
        return all.subList(0, all.indexOf("--module-path"));
    }

    private Launched run(String script) throws Exception {
        Path output = dir.resolve(script + ".out");
        ProcessBuilder builder = new ProcessBuilder(home.resolve("bin").resolve(script).toString())
                .directory(dir.toFile()).redirectErrorStream(true).redirectOutput(output.toFile());
        builder.environment().keySet().removeAll(ChildProcess.CLEARED_ENVIRONMENT);
        builder.environment().keySet().removeAll(CLEARED);
        builder.environment().putAll(environment);
        Process process = builder.start();
        if (!process.waitFor(30, TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            throw new AssertionError(script + " did not exit:\n" + Files.readString(output));
        }
        return new Launched(process.exitValue(), Files.readString(output));
    }

    private void writeMeminfo(long kilobytes) throws IOException {
        write(meminfo, "MemTotal:       " + kilobytes + " kB\nMemFree:         1000 kB\n");
    }

    private static void write(Path file, String content) throws IOException {
        Files.writeString(file, content.endsWith("\n") ? content : content + "\n", StandardCharsets.UTF_8);
    }

    private record Launched(int status, String output) {
    }
}
