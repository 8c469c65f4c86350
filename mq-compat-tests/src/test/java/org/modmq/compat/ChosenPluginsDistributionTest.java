package org.modmq.compat;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.client.producer.SendResult;
import org.apache.rocketmq.client.producer.SendStatus;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;
import org.modmq.testkit.process.Await;
import org.modmq.testkit.process.BuiltDistribution;
import org.modmq.testkit.process.ChildProcess;

/**
 * A distribution with only some plugins, as {@code mvn -pl mq-distribution -am package -Dmodmq.plugins=mmap,pull}
 * makes it: bin/, conf/ and lib/ of the built distribution, plugins/ filled by the build's own selection
 * step ({@code select-plugins.sh}, the system property {@value #SELECT_PROPERTY}) from the jars the build
 * staged ({@value #CANDIDATES_PROPERTY}). It starts with {@code flushDiskType=SYNC_FLUSH} (the flush
 * policies are part of mq-store, always present) and serves a stock client's send; a broker whose
 * configuration names a plugin left out stops at start-up, listing what is installed.
 */
@Tag("integration")
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class ChosenPluginsDistributionTest {

    static final String SELECT_PROPERTY = "modmq.dist.selectPlugins";
    static final String CANDIDATES_PROPERTY = "modmq.dist.pluginCandidates";

    /** A broker that fails on its configuration exits within its JVM's start-up. */
    private static final Duration EXIT_TIMEOUT = Duration.ofSeconds(60);

    @TempDir(cleanup = CleanupMode.ON_SUCCESS)
    Path workDir;

    @Test
    void mmapAndPullDistributionServesASendAndRefusesABrokerNamingAMissingPlugin() throws Exception {
        Distribution chosen = assemble(workDir.resolve("modmq-mmap-pull"), "mmap,pull");
        assertThat(jarNames(chosen.plugins())).hasSize(2)
                .anyMatch(jar -> jar.startsWith("mq-store-mmap-"))
                .anyMatch(jar -> jar.startsWith("mq-ha-pull-"));

        // The flush policies are part of mq-store in lib/, not plugins: a chosen distribution has both.
        Distribution.StandaloneConf conf = chosen.standaloneConf(workDir, "chosen-plugins",
                Map.of("flushDiskType", "SYNC_FLUSH"));
        try (ChildProcess standalone = chosen.startStandalone(workDir, conf)) {
            DefaultMQProducer producer = StockClients.producer(conf.namesrvAddr(), "pg_chosen_plugins");
            try {
                SendResult[] sent = new SendResult[1];
                // The broker's port is open before its first registration reaches the name server.
                Await.until("a send to the mmap/pull distribution", Duration.ofSeconds(30), () -> {
                    try {
                        sent[0] = producer.send(StockClients.message("ChosenPlugins", "TagA", "k", "hello"));
                        return sent[0].getSendStatus() == SendStatus.SEND_OK;
                    } catch (Exception e) {
                        return false;
                    }
                });
                assertThat(sent[0].getMessageQueue().getBrokerName()).isEqualTo(conf.brokerName());
            } finally {
                producer.shutdown();
            }

            Distribution.BrokerConf direct = chosen.brokerConf(workDir, "broker-direct", List.of(conf.namesrvAddr()),
                    Map.of("storeBackend", "direct"));
            Distribution.BrokerConf push = chosen.brokerConf(workDir, "broker-push", List.of(conf.namesrvAddr()),
                    Map.of("haStrategy", "push"));
            // Both at once: each is a JVM start.
            Process directBroker = startBroker(chosen, direct);
            Process pushBroker = startBroker(chosen, push);
            Exited refusedDirect = awaitExit(directBroker, output(direct.label()));
            Exited refusedPush = awaitExit(pushBroker, output(push.label()));
            assertThat(refusedDirect.status()).as(refusedDirect.output()).isEqualTo(1);
            assertThat(refusedDirect.output()).contains("storeBackend=direct in " + direct.file()
                    + " names no installed plugin: expected one of [mmap]");
            assertThat(refusedPush.status()).as(refusedPush.output()).isEqualTo(1);
            assertThat(refusedPush.output()).contains("haStrategy=push in " + push.file()
                    + " names no installed plugin: expected one of [pull]");
            assertThat(standalone.isAlive()).isTrue();
        }
    }

    @Test
    void selectionRefusesUnknownNamesAndAListWithoutStorageOrReplication() throws Exception {
        Path out = workDir.resolve("plugins");
        assertThat(select(out, "mmap,pull,zstd")).contains("unknown plugin 'zstd'; known: mmap, direct, faulty");
        assertThat(select(out, "mmap")).contains("no replication strategy");
        assertThat(select(out, "faulty,push")).contains("no storage backend");
        assertThat(select(out, "mmap,SYNC_FLUSH,pull")).contains("SYNC_FLUSH is a flush policy");
    }

    /** Runs the selection step expecting it to fail; returns what it printed. */
    private String select(Path out, String list) throws Exception {
        Exited exited = run(List.of("sh", property(SELECT_PROPERTY), property(CANDIDATES_PROPERTY), out.toString(),
                list), Map.of(), output("select-" + list.hashCode()));
        assertThat(exited.status()).as(exited.output()).isEqualTo(1);
        return exited.output();
    }

    /** Copies bin/, conf/ and lib/ of the built distribution into {@code home}; plugins/ is the selection's. */
    private Distribution assemble(Path home, String plugins) throws Exception {
        Distribution built = Distribution.located();
        Files.createDirectories(home);
        for (String dir : List.of("bin", "conf", "lib")) {
            copyTree(built.home().resolve(dir), home.resolve(dir));
        }
        Exited exited = run(List.of("sh", property(SELECT_PROPERTY), property(CANDIDATES_PROPERTY),
                home.resolve("plugins").toString(), plugins), Map.of(), output("select"));
        assertThat(exited.status()).as(exited.output()).isZero();
        return Distribution.at(home);
    }

    /** Starts {@code bin/mqbroker -c <conf>}, its output in {@code workDir/<label>.out}. */
    private Process startBroker(Distribution distribution, Distribution.BrokerConf conf) throws IOException {
        Map<String, String> environment = BuiltDistribution.launcherEnvironment(Distribution.TEST_HEAP_OPTS,
                workDir.resolve("logs"));
        String launcher = distribution.home().resolve("bin").resolve("mqbroker").toString();
        return start(List.of(launcher, "-c", conf.file().toString()), environment, output(conf.label()));
    }

    private Path output(String name) {
        return workDir.resolve(name + ".out");
    }

    private Exited run(List<String> command, Map<String, String> environment, Path output) throws Exception {
        return awaitExit(start(command, environment, output), output);
    }

    private Process start(List<String> command, Map<String, String> environment, Path output) throws IOException {
        ProcessBuilder builder = new ProcessBuilder(command).directory(workDir.toFile()).redirectErrorStream(true)
                .redirectOutput(output.toFile());
        builder.environment().keySet().removeAll(ChildProcess.CLEARED_ENVIRONMENT);
        builder.environment().putAll(environment);
        return builder.start();
    }

    private static Exited awaitExit(Process process, Path output) throws Exception {
        if (!process.waitFor(EXIT_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
            process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            throw new AssertionError(process.info().commandLine().orElse("a process") + " still running after "
                    + EXIT_TIMEOUT + ":\n" + read(output));
        }
        return new Exited(process.exitValue(), read(output));
    }

    private static String read(Path file) throws IOException {
        return Files.readString(file, StandardCharsets.UTF_8);
    }

    private static String property(String name) {
        String value = System.getProperty(name);
        if (value == null || value.isBlank()) {
            throw new IllegalStateException("system property " + name + " is not set; run the tests through Maven");
        }
        return value;
    }

    private static void copyTree(Path from, Path to) throws IOException {
        List<Path> paths;
        try (Stream<Path> walk = Files.walk(from)) {
            paths = walk.toList();
        }
        for (Path path : paths) {
            // COPY_ATTRIBUTES keeps the scripts executable.
            Files.copy(path, to.resolve(from.relativize(path).toString()), StandardCopyOption.COPY_ATTRIBUTES);
        }
    }

    private static List<String> jarNames(Path dir) throws IOException {
        List<String> names = new ArrayList<>();
        try (Stream<Path> files = Files.list(dir)) {
            files.forEach(file -> names.add(file.getFileName().toString()));
        }
        return names;
    }

    private record Exited(int status, String output) {
    }
}
