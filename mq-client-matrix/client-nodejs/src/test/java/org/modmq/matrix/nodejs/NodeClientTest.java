package org.modmq.matrix.nodejs;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;
import org.modmq.testkit.process.BuiltDistribution;
import org.modmq.testkit.process.ChildProcess;
import org.modmq.testkit.process.ConfFile;
import org.modmq.testkit.process.FreePort;
import org.modmq.testkit.process.ProcessSpec;

/**
 * ali-ons, a Node.js client of RocketMQ's remoting protocol from npm, against {@code bin/modmq}: the
 * script sends, consumes, stops its consumer, sends while it is down and restarts it. The restarted
 * consumer must get exactly what was sent meanwhile, also on the queues it had never read (ali-ons
 * commits -1 for those: the broker must answer as if no offset were stored, not hand the -1 back).
 */
@Tag("integration")
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class NodeClientTest {

    private static final Duration INSTALL_TIMEOUT = Duration.ofSeconds(180);
    private static final Duration SCENARIO_TIMEOUT = Duration.ofSeconds(90);
    private static final String HEAP_OPTS = "-Xms32m -Xmx192m -XX:MaxDirectMemorySize=256m -XX:+UseSerialGC"
            + " -XX:TieredStopAtLevel=1";

    @TempDir(cleanup = CleanupMode.ON_SUCCESS)
    Path workDir;

    private static Path scenarioDir;

    /** Copies the scenario beside its lock file under target/ and installs exactly the locked packages. */
    @BeforeAll
    static void installLockedPackages() throws Exception {
        Assumptions.assumeTrue(runs("node", "--version") && runs("npm", "--version"),
                "node and npm are not both on the PATH: the Node.js client scenario is skipped");
        Path source = Path.of(System.getProperty("modmq.node.scenario.dir"));
        scenarioDir = Files.createDirectories(Path.of(System.getProperty("modmq.node.work.dir")));
        for (String file : List.of("package.json", "package-lock.json", "resume-scenario.js")) {
            Files.copy(source.resolve(file), scenarioDir.resolve(file), StandardCopyOption.REPLACE_EXISTING);
        }
        Result install = run(scenarioDir, INSTALL_TIMEOUT, "npm", "ci", "--no-audit", "--no-fund", "--prefer-offline");
        assertThat(install.exitStatus()).as("npm ci:\n" + install.output()).isZero();
    }

    @Test
    void aRestartedConsumerGetsEverythingSentWhileItWasDownAlsoOnQueuesItNeverRead() throws Exception {
        int[] ports = FreePort.pick(3);
        Map<String, String> settings = new LinkedHashMap<>();
        settings.put("brokerName", "node-broker");
        settings.put("listenPort", Integer.toString(ports[0]));
        settings.put("haListenPort", Integer.toString(ports[2]));
        settings.put("vipListenPort", "0");
        settings.put("namesrvAddr", "127.0.0.1:" + ports[1]);
        settings.put("storePathRootDir", workDir.resolve("store").toString());
        Path conf = ConfFile.write(workDir, "node.conf", settings);
        BuiltDistribution built = BuiltDistribution.located();
        ProcessSpec spec = new ProcessSpec("modmq-node", List.of(built.script("modmq"), "-c", conf.toString()),
                BuiltDistribution.launcherEnvironment(HEAP_OPTS, workDir.resolve("logs")), workDir, ports[0]);
        try (ChildProcess modmq = ChildProcess.start(spec, Duration.ofSeconds(30))) {
            Result scenario = run(scenarioDir, SCENARIO_TIMEOUT, "node", "resume-scenario.js", "127.0.0.1:" + ports[1],
                    "127.0.0.1:" + ports[0], "NodeResume", "cg_node_resume");
            String report = "node resume-scenario.js:\n" + scenario.output() + "\nmodmq:\n" + modmq.output();
            assertThat(scenario.exitStatus()).as(report).isZero();
            assertThat(scenario.values("RECEIVED-FIRST")).as(report)
                    .containsExactlyInAnyOrderElementsOf(scenario.values("SENT-FIRST"));
            assertThat(scenario.values("UNREAD-QUEUES")).as(report).singleElement()
                    .satisfies(unread -> assertThat(Integer.parseInt(unread)).isPositive());
            assertThat(scenario.values("SENT-DOWN")).as(report).hasSize(8);
            assertThat(scenario.values("RECEIVED-AFTER")).as("no loss, nothing twice; " + report)
                    .containsExactlyInAnyOrderElementsOf(scenario.values("SENT-DOWN"));
        }
    }

    private static boolean runs(String... command) {
        try {
            Process process = new ProcessBuilder(command).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            return process.waitFor(30, TimeUnit.SECONDS) && process.exitValue() == 0;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** Runs {@code command} in {@code dir}, bounded; stdout and stderr together. */
    private static Result run(Path dir, Duration timeout, String... command) throws Exception {
        Path output = Files.createTempFile(dir, command[0] + "-", ".out");
        Process process = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true)
                .redirectOutput(output.toFile()).start();
        if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
            process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            throw new AssertionError(String.join(" ", command) + " did not finish within " + timeout + ":\n"
                    + Files.readString(output, StandardCharsets.UTF_8));
        }
        return new Result(process.exitValue(), Files.readString(output, StandardCharsets.UTF_8));
    }

    /** A finished command: its exit status and output. */
    private record Result(int exitStatus, String output) {

        /** The rest of every line that starts with {@code label} and a space, in order. */
        List<String> values(String label) {
            return output.lines().filter(line -> line.startsWith(label + " "))
                    .map(line -> line.substring(label.length() + 1).trim()).toList();
        }
    }
}
