package org.modmq.compat;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.stream.Stream;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import org.apache.rocketmq.client.consumer.DefaultMQPushConsumer;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.client.producer.SendStatus;
import org.apache.rocketmq.remoting.protocol.heartbeat.MessageModel;
import org.apache.rocketmq.remoting.protocol.route.BrokerData;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import org.modmq.testkit.process.Await;
import org.modmq.testkit.process.ChildProcess;

/**
 * The example third-party storage plugin in {@code examples/filechannel-storage} (not a module of
 * this build) compiled against the distribution's {@code lib/} only, dropped into {@code plugins/} of
 * a copy of the distribution, chosen with {@code storeBackend=filechannel}, and used by a stock
 * producer and consumer, across a broker restart. Runs beside the other classes of this module: it
 * mostly waits (javac, two broker starts, a consumer's rebalance).
 */
@Tag("integration")
@Execution(ExecutionMode.CONCURRENT)
@Timeout(value = 150, unit = TimeUnit.SECONDS)
class ExampleStoragePluginTest {

    private static final Path EXAMPLE = Path.of("").toAbsolutePath().getParent()
            .resolve("examples").resolve("filechannel-storage");

    @TempDir(cleanup = CleanupMode.ON_SUCCESS)
    Path workDir;

    @Test
    void aPluginBuiltAgainstTheApiAloneServesStockClientsAcrossARestart() throws Exception {
        Distribution stock = Distribution.located();
        Path jar = buildPlugin(stock.lib());
        Distribution distribution = stock.copyWithPlugin(workDir.resolve("modmq"), jar);

        try (ChildProcess namesrv = distribution.startNamesrv(workDir)) {
            String namesrvAddr = "127.0.0.1:" + namesrv.port();
            Distribution.BrokerConf conf = distribution.brokerConf(workDir, "broker-fc", List.of(namesrvAddr),
                    Map.of("storeBackend", "filechannel"));
            List<String> sent = new ArrayList<>();
            try (ChildProcess broker = distribution.startBroker(workDir, conf)) {
                awaitRegistered(namesrvAddr, conf);
                DefaultMQProducer producer = StockClients.producer(namesrvAddr, "pg_example_plugin");
                try {
                    for (int i = 0; i < 20; i++) {
                        String body = "example-plugin-" + i;
                        assertThat(producer.send(StockClients.message("ExamplePlugin", "T", "k" + i, body))
                                .getSendStatus()).isEqualTo(SendStatus.SEND_OK);
                        sent.add(body);
                    }
                } finally {
                    producer.shutdown();
                }
                broker.stop(Duration.ofSeconds(20));
            }
            try (Stream<Path> files = Files.list(conf.storeDir().resolve("commitlog"))) {
                assertThat(files.count()).as("CommitLog segments written by the plugin").isPositive();
            }

            try (ChildProcess broker = distribution.startBroker(workDir, conf)) {
                awaitRegistered(namesrvAddr, conf);
                StockClients.Received received = new StockClients.Received();
                DefaultMQPushConsumer consumer = StockClients.pushConsumer(namesrvAddr, "cg_example_plugin",
                        "ExamplePlugin", "*", MessageModel.CLUSTERING, received);
                try {
                    Await.until("the 20 messages read back after the restart", Duration.ofSeconds(60),
                            () -> received.size() >= sent.size());
                    assertThat(received.bodies()).containsExactlyInAnyOrderElementsOf(sent);
                } finally {
                    consumer.shutdown();
                }
            }
        }
    }

    /** javac on the example's sources with the distribution's lib/ as module path, then a jar. */
    private Path buildPlugin(Path lib) throws IOException {
        Path classes = workDir.resolve("example-classes");
        Files.createDirectories(classes);
        List<String> arguments = new ArrayList<>(List.of("--release", "17", "--module-path", lib.toString(),
                "-d", classes.toString()));
        try (Stream<Path> sources = Files.walk(EXAMPLE.resolve("src/main/java"))) {
            sources.filter(file -> file.toString().endsWith(".java")).map(Path::toString).forEach(arguments::add);
        }
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        assertThat(javac.run(null, null, null, arguments.toArray(String[]::new))).as("javac exit status").isZero();

        Path jar = workDir.resolve("modmq-filechannel-storage.jar");
        try (OutputStream file = Files.newOutputStream(jar); JarOutputStream out = new JarOutputStream(file)) {
            addTree(out, classes);
            addTree(out, EXAMPLE.resolve("src/main/resources"));
        }
        return jar;
    }

    private static void addTree(JarOutputStream out, Path root) throws IOException {
        try (Stream<Path> files = Files.walk(root)) {
            for (Path file : (Iterable<Path>) files.filter(Files::isRegularFile).sorted()::iterator) {
                out.putNextEntry(new JarEntry(root.relativize(file).toString().replace('\\', '/')));
                Files.copy(file, out);
                out.closeEntry();
            }
        }
    }

    private static void awaitRegistered(String namesrvAddr, Distribution.BrokerConf conf) throws Exception {
        try (StockAdmin admin = StockAdmin.start(namesrvAddr)) {
            Await.until(conf.brokerName() + " registered", Duration.ofSeconds(30), () -> {
                try {
                    BrokerData data = admin.ext().examineBrokerClusterInfo().getBrokerAddrTable().get(conf.brokerName());
                    return data != null && conf.address().equals(data.getBrokerAddrs().get(0L));
                } catch (Exception e) {
                    return false;
                }
            });
        }
    }
}
