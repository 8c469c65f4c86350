package org.modmq.broker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.modmq.broker.BrokerClient.props;
import static org.modmq.broker.BrokerClient.pull;
import static org.modmq.broker.BrokerClient.sendV2;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.HttpURLConnection;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.modmq.broker.data.PullMessageProcessor;
import org.modmq.broker.testing.Await;
import org.modmq.namesrv.NamesrvConfig;
import org.modmq.namesrv.NamesrvServer;
import org.modmq.remoting.netty.RemotingClient;
import org.modmq.remoting.netty.RemotingClientConfig;
import org.modmq.remoting.protocol.RemotingCommand;
import org.modmq.remoting.protocol.RequestCode;
import org.modmq.remoting.protocol.ResponseCode;

/**
 * The Prometheus endpoints of a SYNC_MASTER and its slave in process ({@code metricsExporterType=PROM},
 * port 0), for both replication plugins: the data-path counters, the flush policy's and the store's
 * latency histograms and the plugin's replica lag, scraped over HTTP.
 */
@Tag("integration")
@Timeout(90)
class BrokerMetricsTest {

    private static final Duration WAIT = Duration.ofSeconds(20);
    private static final String TOPIC = "TopicMetrics";
    private static final String[] PROM = {"metricsExporterType", "PROM", "metricsPromExporterPort", "0"};

    @TempDir
    Path dir;

    private NamesrvServer namesrv;
    private RemotingClient remoting;
    private final List<HaNode> nodes = new ArrayList<>();

    @BeforeEach
    void startNameServer() {
        namesrv = new NamesrvServer(NamesrvConfig.defaults().withListenPort(0)).start();
        remoting = new RemotingClient(RemotingClientConfig.defaults());
    }

    @AfterEach
    void stop() {
        remoting.close();
        for (int i = nodes.size() - 1; i >= 0; i--) {
            nodes.get(i).close();
        }
        namesrv.close();
    }

    private HaNode node(String name, String... keyValues) {
        String[] all = Arrays.copyOf(PROM, PROM.length + keyValues.length);
        System.arraycopy(keyValues, 0, all, PROM.length, keyValues.length);
        HaNode node = HaNode.start(dir.resolve(name), HaNode.freePort(), HaNode.freePort(), namesrv.address(), all);
        nodes.add(node);
        RemotingCommand created = invoke(node, RemotingCommand.request(RequestCode.UPDATE_AND_CREATE_TOPIC)
                .putExtField("topic", TOPIC).putExtField("readQueueNums", 1).putExtField("writeQueueNums", 1)
                .putExtField("perm", 6));
        assertThat(created.code()).isEqualTo(ResponseCode.SUCCESS);
        return node;
    }

    private RemotingCommand invoke(HaNode node, RemotingCommand request) {
        return remoting.invoke(node.address(), request, Duration.ofSeconds(10)).join();
    }

    private static String scrape(HaNode node) {
        int port = node.broker().metricsPort().orElseThrow();
        try {
            HttpURLConnection connection = (HttpURLConnection) URI.create("http://127.0.0.1:" + port + "/metrics")
                    .toURL().openConnection();
            connection.setConnectTimeout(5_000);
            connection.setReadTimeout(10_000);
            try (InputStream in = connection.getInputStream()) {
                return new String(in.readAllBytes(), StandardCharsets.UTF_8);
            } finally {
                connection.disconnect();
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The value of the first sample line of {@code name} containing {@code labelText}, or -1. */
    private static double value(String text, String name, String labelText) {
        for (String line : text.split("\n")) {
            if (line.startsWith(name + "{") && line.contains(labelText)) {
                return Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
            }
        }
        return -1;
    }

    @ParameterizedTest
    @ValueSource(strings = {"pull", "push"})
    void masterAndSlaveReportTrafficLatenciesAndReplicaLag(String strategy) {
        HaNode master = node("master", "brokerRole", "SYNC_MASTER", "haStrategy", strategy);
        HaNode slave = node("slave", "brokerRole", "SLAVE", "brokerId", "1", "haStrategy", strategy);
        Await.until("a slave connected to the master", WAIT, () -> !master.binding().store().replicas().isEmpty());

        for (int i = 0; i < 20; i++) {
            RemotingCommand sent = invoke(master, sendV2(TOPIC, 0, props("UNIQ_KEY", "ID-" + i, "WAIT", "true",
                    "TAGS", "T"), ("metrics-" + i).getBytes(StandardCharsets.UTF_8)));
            assertThat(sent.code()).as(sent.remark()).isEqualTo(ResponseCode.SUCCESS);
        }
        RemotingCommand pulled = invoke(master, pull("g1", TOPIC, 0, 0, PullMessageProcessor.FLAG_SUBSCRIPTION, 0, 0,
                "*"));
        assertThat(pulled.code()).isEqualTo(ResponseCode.SUCCESS);

        String text = scrape(master);
        assertThat(value(text, "rocketmq_messages_in_total", "topic=\"" + TOPIC + "\"")).isEqualTo(20);
        assertThat(value(text, "rocketmq_messages_out_total", "consumer_group=\"g1\"")).isEqualTo(20);
        assertThat(value(text, "modmq_send_latency_seconds_count", "")).isGreaterThanOrEqualTo(20);
        assertThat(value(text, "modmq_pull_latency_seconds_count", "")).isGreaterThanOrEqualTo(1);
        assertThat(value(text, "modmq_replication_latency_seconds_count", "")).isPositive();
        assertThat(value(text, "modmq_broker_role", "role=\"master\"")).isEqualTo(1);
        Await.until("the replica's lag back at 0 bytes", WAIT,
                () -> value(scrape(master), "modmq_replica_lag_bytes", "strategy=\"" + strategy + "\"") == 0);
        Await.until("a force timed by the flush policy", WAIT,
                () -> value(scrape(master), "modmq_flush_latency_seconds_count", "policy=\"ASYNC_FLUSH\"") > 0);
        assertThat(value(scrape(slave), "modmq_broker_role", "role=\"replica\"")).isEqualTo(1);
    }
}
