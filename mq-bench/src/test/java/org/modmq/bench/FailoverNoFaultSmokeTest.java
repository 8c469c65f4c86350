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
 * Keeps the {@code failover} command from rotting without controller mode: runs {@code failover --no-fault}
 * for two seconds against the built distribution's {@code bin/modmq} (name server and one classic master
 * in one process, so a broker set of one) and checks that it waited for the set, sent, watched the
 * name server, read everything back and reported it. Nothing here is a speed claim.
 */
@Tag("integration")
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class FailoverNoFaultSmokeTest {

    private static final Duration START_TIMEOUT = Duration.ofSeconds(90);

    @TempDir
    Path work;

    @Test
    void watchesAStableBrokerSetAndReadsEverythingBack() throws Exception {
        BuiltDistribution dist = BuiltDistribution.located();
        int[] ports = FreePort.pick(3);
        Map<String, String> settings = new LinkedHashMap<>();
        settings.put("brokerClusterName", "SmokeCluster");
        settings.put("brokerName", "smoke-fo");
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
            int exit = cli.execute("failover", "-n", "127.0.0.1:" + ports[0], "--broker-name", "smoke-fo",
                    "--no-fault", "--replicas", "1", "-t", "2", "-s", "256", "-q", "2", "-w", "0", "-d", "2",
                    "--route-poll-ms", "20", "--healthy-timeout", "60", "--verify-idle", "5", "--verify-timeout", "30",
                    "-f", "kv", "--quiet");

            assertThat(exit).as("exit code; stderr: %s", err).isZero();
            Map<String, String> report = kv(out.toString().trim());
            assertThat(report.get("workload")).isEqualTo("failover-none");
            assertThat(report.get("old_master")).isEqualTo("127.0.0.1:" + ports[1]);
            assertThat(Long.parseLong(report.get("acknowledged"))).as(out.toString()).isPositive();
            assertThat(report.get("missing")).isEqualTo("0");
            assertThat(report.get("master_changes")).isEqualTo("0");
            assertThat(report.get("verify_complete")).isEqualTo("true");
            assertThat(Long.parseLong(report.get("route_polls"))).isPositive();
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
