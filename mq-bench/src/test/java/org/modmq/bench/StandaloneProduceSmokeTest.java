package org.modmq.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.modmq.testkit.process.BuiltDistribution;
import org.modmq.testkit.process.ChildProcess;
import org.modmq.testkit.process.ConfFile;
import org.modmq.testkit.process.FreePort;
import org.modmq.testkit.process.ProcessSpec;
import picocli.CommandLine;

/**
 * Keeps the CLI from rotting: starts the built distribution's {@code bin/modmq} (standalone: name
 * server and broker in one process) on free ports and runs the {@code produce} workload against it
 * for one second.
 */
@Tag("integration")
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class StandaloneProduceSmokeTest {

    private static final Duration START_TIMEOUT = Duration.ofSeconds(90);

    @TempDir
    Path work;

    @Test
    void producesAgainstTheStandaloneBroker() throws Exception {
        BuiltDistribution dist = BuiltDistribution.located();
        int[] ports = FreePort.pick(3);
        Map<String, String> settings = new LinkedHashMap<>();
        settings.put("brokerClusterName", "SmokeCluster");
        settings.put("brokerName", "smoke-a");
        settings.put("brokerId", "0");
        settings.put("brokerRole", "ASYNC_MASTER");
        settings.put("brokerIP1", "127.0.0.1");
        settings.put("listenPort", Integer.toString(ports[1]));
        settings.put("haListenPort", Integer.toString(ports[2]));
        settings.put("namesrvAddr", "127.0.0.1:" + ports[0]);
        settings.put("storePathRootDir", work.resolve("store").toString());
        settings.put("autoCreateTopicEnable", "true");
        settings.put("autoCreateSubscriptionGroup", "true");
        Path conf = ConfFile.write(work, "standalone.conf", settings);
        Map<String, String> environment = new HashMap<>(BuiltDistribution.launcherEnvironment(
                "-Xms64m -Xmx256m -XX:MaxDirectMemorySize=256m", work.resolve("logs")));
        environment.put("JAVA_OPTS", "-Duser.home=" + work.resolve("home"));
        ProcessSpec launcher = new ProcessSpec("modmq", List.of(dist.script("modmq"), "-c", conf.toString()),
                environment, work, ports[0]);
        try (ChildProcess modmq = ChildProcess.start(launcher, START_TIMEOUT)) {
            modmq.awaitAccepting(ports[1], START_TIMEOUT);
            StringWriter out = new StringWriter();
            StringWriter err = new StringWriter();
            CommandLine cli = BenchMain.commandLine();
            cli.setOut(new PrintWriter(out, true));
            cli.setErr(new PrintWriter(err, true));
            int exit = cli.execute("produce", "-n", "127.0.0.1:" + ports[0], "-m", "sync", "-t", "2", "-s", "256",
                    "-q", "2", "-w", "0", "-d", "1", "-f", "kv", "--quiet");

            assertThat(exit).as("exit code; stderr: %s", err).isZero();
            Map<String, String> report = kv(out.toString().trim());
            assertThat(Long.parseLong(report.get("messages"))).as(out.toString()).isPositive();
            assertThat(report.get("errors")).isEqualTo("0");
        }
    }

    private static Map<String, String> kv(String line) {
        Map<String, String> values = new HashMap<>();
        for (String pair : line.split(" ")) {
            int split = pair.indexOf('=');
            if (split > 0) {
                values.put(pair.substring(0, split), pair.substring(split + 1));
            }
        }
        return values;
    }
}
