package org.modmq.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * Keeps the CLI from rotting: starts the built distribution's {@code bin/modmq} (standalone: name
 * server and broker in one process) on free ports and runs the {@code produce} workload against it
 * for one second.
 */
@Tag("integration")
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class StandaloneProduceSmokeTest {

    private static final long START_TIMEOUT_NANOS = TimeUnit.SECONDS.toNanos(90);

    @TempDir
    Path work;

    @Test
    void producesAgainstTheStandaloneBroker() throws Exception {
        Path dist = Path.of(System.getProperty("modmq.dist.dir", "../mq-distribution/target/modmq-0.1.0-SNAPSHOT"));
        Path launcher = dist.resolve("bin/modmq");
        assertThat(launcher).as("build mq-distribution first").isExecutable();
        int[] ports = freePorts(3);
        Path conf = work.resolve("standalone.conf");
        Files.writeString(conf, String.join("\n", "brokerClusterName=SmokeCluster", "brokerName=smoke-a",
                "brokerId=0", "brokerRole=ASYNC_MASTER", "brokerIP1=127.0.0.1", "listenPort=" + ports[1],
                "haListenPort=" + ports[2], "namesrvAddr=127.0.0.1:" + ports[0],
                "storePathRootDir=" + work.resolve("store"), "autoCreateTopicEnable=true",
                "autoCreateSubscriptionGroup=true", ""));
        ProcessBuilder builder = new ProcessBuilder(launcher.toString(), "-c", conf.toString())
                .redirectErrorStream(true).redirectOutput(work.resolve("modmq.out").toFile());
        builder.environment().put("MODMQ_LOG_DIR", work.resolve("logs").toString());
        builder.environment().put("JAVA_HEAP_OPTS", "-Xms64m -Xmx256m -XX:MaxDirectMemorySize=256m");
        builder.environment().put("JAVA_OPTS", "-Duser.home=" + work.resolve("home"));
        Process modmq = builder.start();
        try {
            awaitListening(modmq, ports[0], ports[1]);
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
        } finally {
            modmq.destroy();
            if (!modmq.waitFor(30, TimeUnit.SECONDS)) {
                modmq.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        }
    }

    private void awaitListening(Process modmq, int... ports) throws IOException {
        long deadline = System.nanoTime() + START_TIMEOUT_NANOS;
        for (int port : ports) {
            while (!accepts(port)) {
                assertThat(modmq.isAlive()).as("bin/modmq exited: %s", output()).isTrue();
                assertThat(System.nanoTime() - deadline).as("not listening on %d: %s", port, output()).isNegative();
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(100));
            }
        }
    }

    private String output() throws IOException {
        Path out = work.resolve("modmq.out");
        return Files.exists(out) ? Files.readString(out) : "";
    }

    private static boolean accepts(int port) {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress("127.0.0.1", port), 500);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    private static int[] freePorts(int count) throws IOException {
        List<ServerSocket> sockets = new ArrayList<>();
        try {
            int[] ports = new int[count];
            for (int i = 0; i < count; i++) {
                ServerSocket socket = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress());
                sockets.add(socket);
                ports[i] = socket.getLocalPort();
            }
            return ports;
        } finally {
            for (ServerSocket socket : sockets) {
                socket.close();
            }
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
