package org.modmq.compat;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.rocketmq.client.consumer.DefaultMQPushConsumer;
import org.apache.rocketmq.client.consumer.listener.ConsumeConcurrentlyStatus;
import org.apache.rocketmq.client.consumer.listener.MessageListenerConcurrently;
import org.apache.rocketmq.client.producer.LocalTransactionState;
import org.apache.rocketmq.client.producer.SendResult;
import org.apache.rocketmq.client.producer.SendStatus;
import org.apache.rocketmq.client.producer.TransactionListener;
import org.apache.rocketmq.client.producer.TransactionMQProducer;
import org.apache.rocketmq.common.consumer.ConsumeFromWhere;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.common.message.MessageExt;
import org.apache.rocketmq.remoting.protocol.ResponseCode;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
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
 * to 0 once it consumed them; a message sent to a DLQ, a committed and a rolled-back transaction and a
 * timer message move RocketMQ's DLQ, transaction and timer figures; RocketMQ's {@code rocketmq_rpc_latency}
 * counts the broker's and the name server's requests; the name server's and a controller's endpoints
 * answer with their figures, the controller's with RocketMQ's {@code role}, {@code request_total} and
 * {@code election_total} once a (fake) broker joined and was elected.
 */
@Tag("integration")
@Timeout(value = 120, unit = TimeUnit.SECONDS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class MetricsCompatTest {

    private static final Duration FIGURE_TIMEOUT = Duration.ofSeconds(30);
    private static final String TOPIC = "MetricsTopic";
    private static final String GROUP = "cg_metrics";

    @TempDir(cleanup = CleanupMode.ON_SUCCESS)
    static Path workDir;

    private static ModmqCluster cluster;
    private static int brokerMetricsPort;
    private static int namesrvMetricsPort;
    private static int controllerMetricsPort;
    private static ChildProcess controller;

    /**
     * Dashboard names the running distribution does not expose in this test's cluster, each with why.
     * Everything else the dashboard reads must be a family seen on one of the three endpoints.
     */
    private static final Map<String, String> NOT_EXPOSED_HERE = Map.of(
            "modmq_replica_lag_bytes", "only on a master while a replica is connected; this cluster has none",
            "active_broker_num", "only while a broker heartbeats to the controller; the fake broker of "
                    + "nameServerAndControllerServeTheirFigures (which asserts it) has disconnected");

    @BeforeAll
    static void startCluster() throws Exception {
        int[] ports = FreePort.pick(3);
        brokerMetricsPort = ports[0];
        namesrvMetricsPort = ports[1];
        controllerMetricsPort = ports[2];
        cluster = ModmqCluster.start(workDir, 1, prom(brokerMetricsPort), prom(namesrvMetricsPort));
        controller = cluster.distribution().startController(workDir, prom(controllerMetricsPort));
    }

    @AfterAll
    static void stopCluster() {
        if (controller != null) {
            controller.close();
        }
        if (cluster != null) {
            cluster.close();
        }
    }

    private static Map<String, String> prom(int port) {
        return Map.of("metricsExporterType", "PROM", "metricsPromExporterHost", "127.0.0.1",
                "metricsPromExporterPort", Integer.toString(port));
    }

    @Test
    @Order(1)
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
            assertThat(afterSends.sum("rocketmq_rpc_latency_count", Map.of("request_code", "send_message_v2",
                    "response_code", "success", "result", "success", "protocol_type", "remoting")))
                    .isGreaterThanOrEqualTo(sent);
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
    @Order(2)
    void nameServerAndControllerServeTheirFigures() throws Exception {
        Await.until("the name server's endpoint counts the broker", FIGURE_TIMEOUT, () -> {
            PromScrape namesrv = PromScrape.orNull(namesrvMetricsPort);
            return namesrv != null && namesrv.sum("modmq_namesrv_live_brokers", Map.of()) == 1;
        });
        PromScrape namesrv = PromScrape.of(namesrvMetricsPort);
        assertThat(namesrv.samples("modmq_namesrv_live_brokers", Map.of()))
                .allSatisfy(sample -> assertThat(sample.labels()).containsEntry("node_type", "namesrv"));
        assertThat(namesrv.sum("rocketmq_rpc_latency_count", Map.of("request_code", "register_broker",
                "response_code", "success"))).isPositive();

        try (StockControllerRegistrar registrar = new StockControllerRegistrar()) {
            Await.until("the controller's endpoint shows it leading", FIGURE_TIMEOUT, () -> {
                PromScrape scrape = PromScrape.orNull(controllerMetricsPort);
                return scrape != null && scrape.sum("modmq_controller_leader", Map.of()) == 1;
            });
            PromScrape leading = PromScrape.of(controllerMetricsPort);
            assertThat(leading.samples("modmq_controller_leader", Map.of()))
                    .allSatisfy(sample -> assertThat(sample.labels()).containsEntry("node_type", "controller"));
            assertThat(leading.sum("role", Map.of())).isEqualTo(3);

            // A fake broker (nothing listens at its address) joins and is elected: RocketMQ's controller figures move.
            long id = registrar.join(controller.address(), "MetricsCluster", "metrics-set", "127.0.0.1:1");
            assertThat(registrar.elect(controller.address(), "MetricsCluster", "metrics-set", id).getCode())
                    .isEqualTo(ResponseCode.SUCCESS);
            Await.until("the election counted", FIGURE_TIMEOUT, () -> scraped(controllerMetricsPort)
                    .sum("election_total", Map.of("cluster", "MetricsCluster", "broker_set", "metrics-set",
                            "election_result", "new_master_elected")) == 1);
            PromScrape elected = PromScrape.of(controllerMetricsPort);
            assertThat(elected.sum("request_total", Map.of("request_type", "CONTROLLER_ELECT_MASTER",
                    "request_handle_status", "success"))).isEqualTo(1);
            assertThat(elected.sum("request_latency_count", Map.of("request_type", "CONTROLLER_REGISTER_BROKER")))
                    .isEqualTo(1);
            assertThat(elected.sum("active_broker_num", Map.of("cluster", "MetricsCluster",
                    "broker_set", "metrics-set"))).isEqualTo(1);
        }
    }

    @Test
    @Order(3)
    void deadLetterTransactionAndTimerFiguresFollowWhatTheClientsDo() throws Exception {
        String topic = "MetricsEventsTopic";
        String group = "cg_metrics_dlq";
        cluster.createTopic(topic, 1);
        Map<String, String> byTopic = Map.of("topic", topic);

        // Straight to the DLQ: a listener asking for delay level -1 on its first delivery.
        DefaultMQPushConsumer consumer = new DefaultMQPushConsumer(group);
        consumer.setNamesrvAddr(cluster.namesrvAddr());
        consumer.setInstanceName(StockClients.instanceName("metrics-dlq"));
        consumer.setConsumeFromWhere(ConsumeFromWhere.CONSUME_FROM_FIRST_OFFSET);
        consumer.setPollNameServerInterval(1_000);
        consumer.setHeartbeatBrokerInterval(1_000);
        consumer.subscribe(topic, "dlq");
        consumer.registerMessageListener((MessageListenerConcurrently) (messages, context) -> {
            context.setDelayLevelWhenNextConsume(-1);
            return ConsumeConcurrentlyStatus.RECONSUME_LATER;
        });
        consumer.start();
        TransactionMQProducer transactions = new TransactionMQProducer("pg_metrics_tx");
        try {
            cluster.produce(topic, "dlq", 1);
            Await.until("one message sent to the DLQ of " + group, FIGURE_TIMEOUT, () -> scraped().sum(
                    "rocketmq_send_to_dlq_messages_total", Map.of("consumer_group", group, "topic", topic,
                            "is_system", "false")) == 1);

            transactions.setNamesrvAddr(cluster.namesrvAddr());
            transactions.setInstanceName(StockClients.instanceName("metrics-tx"));
            transactions.setPollNameServerInterval(1_000);
            transactions.setTransactionListener(new TransactionListener() {
                @Override
                public LocalTransactionState executeLocalTransaction(Message message, Object arg) {
                    return "commit".equals(message.getTags()) ? LocalTransactionState.COMMIT_MESSAGE
                            : LocalTransactionState.ROLLBACK_MESSAGE;
                }

                @Override
                public LocalTransactionState checkLocalTransaction(MessageExt message) {
                    return LocalTransactionState.ROLLBACK_MESSAGE;
                }
            });
            transactions.start();
            for (String outcome : new String[] {"commit", "rollback"}) {
                SendResult sent = transactions.sendMessageInTransaction(new Message(topic, outcome,
                        outcome.getBytes(StandardCharsets.UTF_8)), null);
                assertThat(sent.getSendStatus()).isEqualTo(SendStatus.SEND_OK);
            }
            // END_TRANSACTION is one-way: the broker counts it a moment after the send returned.
            Await.until("one commit and one rollback of " + topic, FIGURE_TIMEOUT, () -> {
                PromScrape scrape = scraped();
                return scrape.sum("rocketmq_commit_messages_total", byTopic) == 1
                        && scrape.sum("rocketmq_rollback_messages_total", byTopic) == 1;
            });
            assertThat(scraped().sum("rocketmq_half_messages", byTopic)).isZero();

            Message timer = new Message(topic, "timer", "timer".getBytes(StandardCharsets.UTF_8));
            timer.setDelayTimeMs(1_000);
            assertThat(cluster.producer().send(timer).getSendStatus()).isEqualTo(SendStatus.SEND_OK);
            Await.until("the timer enqueued and dequeued", FIGURE_TIMEOUT, () -> {
                PromScrape scrape = scraped();
                return scrape.sum("rocketmq_timer_enqueue_total", byTopic) == 1
                        && scrape.sum("rocketmq_timer_dequeue_total", byTopic) == 1;
            });
            assertThat(scraped().sum("rocketmq_timing_messages", byTopic)).isZero();
        } finally {
            transactions.shutdown();
            consumer.shutdown();
        }
    }

    /**
     * Every metric the shipped Grafana dashboard queries is a family the distribution exposes. Runs last, so
     * that the families that appear with their first event (a DLQ message, an election, ...) have appeared.
     */
    @Test
    @Order(4)
    void theDashboardQueriesOnlyFamiliesTheDistributionExposes() throws Exception {
        Path dashboard = cluster.distribution().home().resolve("conf/grafana/modmq-dashboard.json");
        Set<String> exposed = new TreeSet<>();
        for (int port : new int[] {brokerMetricsPort, namesrvMetricsPort, controllerMetricsPort}) {
            PromScrape.of(port).samples().forEach(sample -> exposed.add(sample.name()));
        }
        List<String> queries = DashboardQueries.queries(dashboard);
        assertThat(queries).hasSizeGreaterThan(20);
        Map<String, String> unknown = new TreeMap<>();
        Set<String> read = new TreeSet<>();
        for (String query : queries) {
            for (String name : DashboardQueries.metricNames(query)) {
                read.add(name);
                if (!exposed.contains(name) && !NOT_EXPOSED_HERE.containsKey(name)) {
                    unknown.put(name, query);
                }
            }
        }
        assertThat(unknown).as("dashboard names (with a query) no endpoint exposes; exposed: " + exposed).isEmpty();
        assertThat(read).as("every allow-listed name is still read by the dashboard")
                .containsAll(NOT_EXPOSED_HERE.keySet());
        assertThat(read).contains("rocketmq_rpc_latency_bucket", "rocketmq_send_to_dlq_messages_total",
                "rocketmq_timer_enqueue_total", "election_total", "role");
    }

    private static PromScrape scraped() {
        return scraped(brokerMetricsPort);
    }

    private static PromScrape scraped(int port) {
        PromScrape scrape = PromScrape.orNull(port);
        if (scrape == null) {
            throw new AssertionError("/metrics on port " + port + " does not answer");
        }
        return scrape;
    }
}
