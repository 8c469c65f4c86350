package org.modmq.compat;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.rocketmq.client.consumer.DefaultMQPushConsumer;
import org.apache.rocketmq.client.consumer.listener.ConsumeConcurrentlyStatus;
import org.apache.rocketmq.client.consumer.listener.MessageListenerConcurrently;
import org.apache.rocketmq.common.consumer.ConsumeFromWhere;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;
import org.modmq.testkit.process.Await;
import org.modmq.testkit.process.ChildProcess;
import org.modmq.testkit.process.FreePort;

/**
 * The Prometheus endpoints of the distribution's processes ({@code metricsExporterType=PROM}), scraped over
 * HTTP while the stock 5.3.3 client sends and consumes: RocketMQ's {@code rocketmq_messages_in_total} grows
 * by what was sent, {@code rocketmq_consumer_lag_messages} rises while the group holds its messages and falls
 * to 0 once it consumed them; the name server's and a controller's endpoints answer with their figures.
 */
@Tag("integration")
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class MetricsCompatTest {

    private static final Duration FIGURE_TIMEOUT = Duration.ofSeconds(30);
    private static final String TOPIC = "MetricsTopic";
    private static final String GROUP = "cg_metrics";

    @TempDir(cleanup = CleanupMode.ON_SUCCESS)
    static Path workDir;

    private static ModmqCluster cluster;
    private static int brokerMetricsPort;
    private static int namesrvMetricsPort;

    @BeforeAll
    static void startCluster() throws Exception {
        int[] ports = FreePort.pick(2);
        brokerMetricsPort = ports[0];
        namesrvMetricsPort = ports[1];
        cluster = ModmqCluster.start(workDir, 1, prom(brokerMetricsPort), prom(namesrvMetricsPort));
    }

    @AfterAll
    static void stopCluster() {
        if (cluster != null) {
            cluster.close();
        }
    }

    private static Map<String, String> prom(int port) {
        return Map.of("metricsExporterType", "PROM", "metricsPromExporterHost", "127.0.0.1",
                "metricsPromExporterPort", Integer.toString(port));
    }

    @Test
    void messagesInFollowSendsAndLagRisesThenFallsWithConsumption() throws Exception {
        cluster.createTopic(TOPIC, 2);
        Map<String, String> topic = Map.of("topic", TOPIC);
        Map<String, String> group = Map.of("topic", TOPIC, "consumer_group", GROUP);
        double inBefore = PromScrape.of(brokerMetricsPort).sum("rocketmq_messages_in_total", topic);

        CountDownLatch release = new CountDownLatch(1);
        AtomicInteger consumed = new AtomicInteger();
        DefaultMQPushConsumer consumer = new DefaultMQPushConsumer(GROUP);
        consumer.setNamesrvAddr(cluster.namesrvAddr());
        consumer.setInstanceName(StockClients.instanceName("metrics"));
        consumer.setConsumeFromWhere(ConsumeFromWhere.CONSUME_FROM_FIRST_OFFSET);
        consumer.setPollNameServerInterval(1_000);
        consumer.setHeartbeatBrokerInterval(1_000);
        consumer.setPersistConsumerOffsetInterval(1_000);
        consumer.subscribe(TOPIC, "*");
        // Holds every delivery until released (bounded), so that nothing is committed while the lag is read.
        consumer.registerMessageListener((MessageListenerConcurrently) (messages, context) -> {
            try {
                if (!release.await(60, TimeUnit.SECONDS)) {
                    return ConsumeConcurrentlyStatus.RECONSUME_LATER;
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return ConsumeConcurrentlyStatus.RECONSUME_LATER;
            }
            consumed.addAndGet(messages.size());
            return ConsumeConcurrentlyStatus.CONSUME_SUCCESS;
        });
        consumer.start();
        try {
            Await.until("group " + GROUP + " known to the broker's lag figures", FIGURE_TIMEOUT,
                    () -> scraped().has("rocketmq_consumer_lag_messages", group));
            assertThat(scraped().sum("rocketmq_consumer_lag_messages", group)).isZero();

            int sent = cluster.produce(TOPIC, "T", 20).size();

            PromScrape afterSends = scraped();
            assertThat(afterSends.sum("rocketmq_messages_in_total", topic)).isEqualTo(inBefore + sent);
            assertThat(afterSends.sum("rocketmq_throughput_in_total", topic)).isPositive();
            assertThat(afterSends.sum("modmq_send_latency_seconds_count", Map.of())).isGreaterThanOrEqualTo(sent);
            assertThat(afterSends.has("rocketmq_producer_connections", Map.of("language", "java"))).isTrue();
            Await.until("lag of " + GROUP + " at " + sent, FIGURE_TIMEOUT,
                    () -> scraped().sum("rocketmq_consumer_lag_messages", group) == sent);
            PromScrape held = scraped();
            assertThat(held.sum("modmq_consumer_queue_lag_messages", group)).isEqualTo(sent);
            assertThat(held.samples("modmq_consumer_queue_lag_messages", group)).hasSize(2);
            assertThat(held.has("rocketmq_consumer_connections", Map.of("consumer_group", GROUP,
                    "consume_mode", "push"))).isTrue();

            release.countDown();
            Await.until("lag of " + GROUP + " back at 0", FIGURE_TIMEOUT,
                    () -> scraped().sum("rocketmq_consumer_lag_messages", group) == 0);
            PromScrape drained = scraped();
            assertThat(consumed.get()).isGreaterThanOrEqualTo(sent);
            assertThat(drained.sum("rocketmq_messages_out_total", group)).isGreaterThanOrEqualTo(sent);
            assertThat(drained.sum("rocketmq_throughput_out_total", group)).isPositive();
            assertThat(drained.sum("modmq_consumer_queue_lag_messages", group)).isZero();
            assertThat(drained.has("rocketmq_storage_size", Map.of("storage_type", "local"))).isTrue();
            assertThat(drained.sum("modmq_broker_role", Map.of("role", "master"))).isEqualTo(1);
            assertThat(drained.samples("rocketmq_messages_in_total", topic)).allSatisfy(sample ->
                    assertThat(sample.labels()).containsEntry("cluster", cluster.clusterName())
                            .containsEntry("node_type", "broker").containsEntry("node_id", cluster.brokerName()));
        } finally {
            release.countDown();
            consumer.shutdown();
        }
    }

    @Test
    void nameServerAndControllerServeTheirFigures() throws Exception {
        Await.until("the name server's endpoint counts the broker", FIGURE_TIMEOUT, () -> {
            PromScrape namesrv = PromScrape.orNull(namesrvMetricsPort);
            return namesrv != null && namesrv.sum("modmq_namesrv_live_brokers", Map.of()) == 1;
        });
        assertThat(PromScrape.of(namesrvMetricsPort).samples("modmq_namesrv_live_brokers", Map.of()))
                .allSatisfy(sample -> assertThat(sample.labels()).containsEntry("node_type", "namesrv"));

        int controllerMetricsPort = FreePort.pick();
        try (ChildProcess controller = cluster.distribution().startController(workDir, prom(controllerMetricsPort))) {
            Await.until("the controller's endpoint shows it leading", FIGURE_TIMEOUT, () -> {
                PromScrape scrape = PromScrape.orNull(controllerMetricsPort);
                return scrape != null && scrape.sum("modmq_controller_leader", Map.of()) == 1;
            });
            assertThat(PromScrape.of(controllerMetricsPort).samples("modmq_controller_leader", Map.of()))
                    .allSatisfy(sample -> assertThat(sample.labels()).containsEntry("node_type", "controller"));
        }
    }

    private static PromScrape scraped() {
        PromScrape scrape = PromScrape.orNull(brokerMetricsPort);
        if (scrape == null) {
            throw new AssertionError("the broker's /metrics on port " + brokerMetricsPort + " does not answer");
        }
        return scrape;
    }
}
