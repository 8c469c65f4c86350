package org.modmq.matrix;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.apache.rocketmq.client.consumer.DefaultLitePullConsumer;
import org.apache.rocketmq.client.consumer.DefaultMQPushConsumer;
import org.apache.rocketmq.client.exception.MQClientException;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.client.producer.SendCallback;
import org.apache.rocketmq.client.producer.SendResult;
import org.apache.rocketmq.client.producer.SendStatus;
import org.apache.rocketmq.common.MQVersion;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.common.message.MessageExt;
import org.apache.rocketmq.common.message.MessageQueue;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.Isolated;
import org.modmq.testkit.process.Await;

/**
 * The compatibility scenarios every stock client line runs against one {@code bin/modmq} process:
 * every send mode and a batch, lite pull with assign and seek, orderly consumption, a push consumer
 * resuming after a restart from its committed offsets, and the mqadmin commands operators use first.
 * Compiled once per line against that line's client and tools. Each test has its own topic and groups.
 * Runs alone ({@code @Isolated}): no concurrent matrix class adds load to its consumers and mqadmin JVMs.
 */
@Tag("integration")
@Timeout(value = 120, unit = TimeUnit.SECONDS)
@Isolated
class ClientMatrixTest {

    private static final Duration DELIVERY = Duration.ofSeconds(30);

    @TempDir(cleanup = CleanupMode.ON_SUCCESS)
    static Path workDir;

    private static final MatrixClients.Shutdowns SHUTDOWNS = new MatrixClients.Shutdowns();
    private static MatrixBroker broker;
    private static DefaultMQProducer producer;

    @BeforeAll
    static void start() throws Exception {
        broker = MatrixBroker.start(workDir);
        producer = MatrixClients.producer(broker.namesrvAddr(), "pg_matrix");
    }

    @AfterAll
    static void stop() {
        if (producer != null) {
            SHUTDOWNS.start(producer::shutdown);
        }
        SHUTDOWNS.await();
        if (broker != null) {
            broker.close();
        }
    }

    @Test
    void theClassPathHoldsTheClientLineOfThisModule() {
        String expected = "V" + System.getProperty("modmq.matrix.client").replace('.', '_');
        assertThat(MQVersion.getVersionDesc(MQVersion.CURRENT_VERSION)).isEqualTo(expected);
    }

    @Test
    void syncAsyncOnewayAndBatchSendsArriveOnceAndPullReadsFromTheSeekOffset() throws Exception {
        String topic = "MatrixSendModes";
        broker.createTopic(topic, 1);
        SendResult sync = producer.send(MatrixClients.message(topic, "TagA", "k-sync", "sync"));
        assertThat(sync.getSendStatus()).isEqualTo(SendStatus.SEND_OK);
        assertThat(sync.getMessageQueue().getBrokerName()).isEqualTo(MatrixBroker.BROKER);
        CompletableFuture<SendResult> async = new CompletableFuture<>();
        producer.send(MatrixClients.message(topic, "TagA", "k-async", "async"), new SendCallback() {
            @Override
            public void onSuccess(SendResult result) {
                async.complete(result);
            }

            @Override
            public void onException(Throwable e) {
                async.completeExceptionally(e);
            }
        });
        assertThat(async.get(10, TimeUnit.SECONDS).getSendStatus()).isEqualTo(SendStatus.SEND_OK);
        producer.sendOneway(MatrixClients.message(topic, "TagA", "k-oneway", "oneway"));
        List<Message> batch = IntStream.range(0, 4)
                .mapToObj(i -> MatrixClients.message(topic, "TagB", "k-batch-" + i, "batch-" + i)).toList();
        SendResult batchResult = producer.send(batch);
        assertThat(batchResult.getSendStatus()).isEqualTo(SendStatus.SEND_OK);
        assertThat(batchResult.getOffsetMsgId().split(",")).hasSize(4);

        DefaultLitePullConsumer consumer = MatrixClients.litePullConsumer(broker.namesrvAddr(), "cg_matrix_pull");
        try {
            Collection<MessageQueue> queues = consumer.fetchMessageQueues(topic);
            assertThat(queues).hasSize(1);
            MessageQueue queue = queues.iterator().next();
            consumer.assign(queues);
            List<MessageExt> all = FromStart.poll(consumer, queue, 7, DELIVERY);
            assertThat(all).extracting(m -> new String(m.getBody(), StandardCharsets.UTF_8)).containsExactlyInAnyOrder(
                    "sync", "async", "oneway", "batch-0", "batch-1", "batch-2", "batch-3");
            assertThat(all).extracting(MessageExt::getQueueOffset).containsExactly(0L, 1L, 2L, 3L, 4L, 5L, 6L);
            assertThat(all).filteredOn(m -> "k-sync".equals(m.getKeys())).singleElement()
                    .satisfies(m -> assertThat(m.getMsgId()).isEqualTo(sync.getMsgId()));

            consumer.seek(queue, 5);
            assertThat(poll(consumer, 2)).extracting(MessageExt::getQueueOffset).containsExactly(5L, 6L);
        } finally {
            SHUTDOWNS.start(consumer::shutdown);
        }
    }

    @Test
    void anOrderlyConsumerSeesEachQueueInSendingOrder() throws Exception {
        String topic = "MatrixOrderly";
        broker.createTopic(topic, 3);
        List<MessageQueue> queues = new ArrayList<>(producer.fetchPublishMessageQueues(topic));
        assertThat(queues).hasSize(3);
        for (int i = 0; i < 10; i++) {
            for (int key = 0; key < 3; key++) {
                Message message = MatrixClients.message(topic, "T", "order-" + key, key + ":" + i);
                SendResult result = producer.send(message, (all, m, arg) -> all.get((Integer) arg), key);
                assertThat(result.getMessageQueue().getQueueId()).isEqualTo(queues.get(key).getQueueId());
            }
        }
        MatrixClients.Received received = new MatrixClients.Received();
        DefaultMQPushConsumer consumer = MatrixClients.orderlyConsumer(broker.namesrvAddr(), "cg_matrix_orderly", topic,
                received);
        try {
            Await.until("30 ordered messages", DELIVERY, () -> received.size() >= 30);
        } finally {
            SHUTDOWNS.start(consumer::shutdown);
        }
        Map<String, List<String>> byKey = new HashMap<>();
        for (MessageExt message : received.messages()) {
            String body = new String(message.getBody(), StandardCharsets.UTF_8);
            byKey.computeIfAbsent(body.substring(0, body.indexOf(':')), k -> new ArrayList<>()).add(body);
        }
        assertThat(byKey).hasSize(3);
        byKey.forEach((key, bodies) -> assertThat(bodies).as("queue of key " + key)
                .containsExactlyElementsOf(IntStream.range(0, 10).mapToObj(i -> key + ":" + i).toList()));
    }

    @Test
    void aRestartedPushConsumerResumesAfterItsCommittedOffsets() throws Exception {
        String topic = "MatrixResume";
        broker.createTopic(topic, 2);
        List<String> first = send(topic, "first", 6);
        assertThat(consumeAndStop(topic, "cg_matrix_resume", 6)).containsExactlyInAnyOrderElementsOf(first);

        List<String> second = send(topic, "second", 4);
        assertThat(consumeAndStop(topic, "cg_matrix_resume", 4)).containsExactlyInAnyOrderElementsOf(second);
    }

    @Test
    void mqadminReportsTheClusterTheRouteTheBrokerAndTheGroups() throws Exception {
        String topic = "MatrixAdmin";
        broker.createTopic(topic, 2);
        send(topic, "admin", 6);
        // These three need no consumer: they run while the groups below are set up.
        List<CompletableFuture<MqAdminCli.Result>> early = MqAdminCli.startAll(broker.workDir(), broker.namesrvAddr(),
                List.of(List.of("clusterList"), List.of("topicRoute", "-t", topic),
                        List.of("brokerStatus", "-b", broker.brokerAddr())));
        consumeAndStop(topic, "cg_matrix_progress", 6);
        MatrixClients.Received received = new MatrixClients.Received();
        DefaultMQPushConsumer live = MatrixClients.pushConsumer(broker.namesrvAddr(), "cg_matrix_live", topic,
                received);
        List<MqAdminCli.Result> runs = new ArrayList<>();
        try {
            Await.until("cg_matrix_live read the topic", DELIVERY, () -> received.size() >= 6);
            List<CompletableFuture<MqAdminCli.Result>> late = MqAdminCli.startAll(broker.workDir(),
                    broker.namesrvAddr(), List.of(List.of("consumerConnection", "-g", "cg_matrix_live"),
                            List.of("consumerProgress", "-g", "cg_matrix_progress")));
            runs.addAll(MqAdminCli.results(early));
            runs.addAll(MqAdminCli.results(late));
        } finally {
            SHUTDOWNS.start(live::shutdown);
        }
        runs.forEach(run -> assertThat(run.exitStatus()).as(run.toString()).isZero());
        runs.forEach(run -> assertThat(run.output()).as(run.toString()).doesNotContain("Exception"));

        MqAdminCli.Result clusters = runs.get(0);
        assertThat(clusters.rows(MatrixBroker.CLUSTER)).as(clusters.toString()).singleElement()
                .satisfies(columns -> assertThat(columns).startsWith(MatrixBroker.CLUSTER, MatrixBroker.BROKER, "0",
                        broker.brokerAddr(), "V5_3_3"));

        MqAdminCli.Result route = runs.get(1);
        assertThat(route.output()).as(route.toString()).containsPattern("\"brokerName\"\\s*:\\s*\"" + MatrixBroker.BROKER)
                .containsPattern("\"writeQueueNums\"\\s*:\\s*2").contains(broker.brokerAddr());

        MqAdminCli.Result status = runs.get(2);
        assertThat(status.lines()).as(status.toString()).anySatisfy(line -> assertThat(line)
                .matches("brokerVersionDesc\\s*: V5_3_3"));
        assertThat(status.output()).contains("putTps", "commitLogMaxOffset", "putLatency99");

        MqAdminCli.Result connection = runs.get(3);
        assertThat(connection.output()).as(connection.toString()).contains("CLUSTERING", topic);

        MqAdminCli.Result progress = runs.get(4);
        assertThat(progress.output()).as(progress.toString()).contains("Diff Total: 0");
        // #Topic #Broker Name #QID #Broker Offset #Consumer Offset ...
        assertThat(progress.rows(topic)).as(progress.toString()).hasSize(2).allSatisfy(columns -> {
            assertThat(columns[1]).isEqualTo(MatrixBroker.BROKER);
            assertThat(columns[3]).as("broker offset").isEqualTo("3");
            assertThat(columns[4]).as("consumer offset").isEqualTo("3");
        });
    }

    /** Sends {@code count} messages round-robin over the topic's queues; returns their bodies. */
    private static List<String> send(String topic, String prefix, int count) throws Exception {
        List<String> bodies = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            String body = topic + "-" + prefix + "-" + i;
            assertThat(producer.send(MatrixClients.message(topic, "T", "key-" + i, body)).getSendStatus())
                    .isEqualTo(SendStatus.SEND_OK);
            bodies.add(body);
        }
        return bodies;
    }

    /**
     * Starts a push consumer in {@code group}, waits for {@code expected} messages, until its offsets
     * reached every queue's end and until the broker holds them as committed, then shuts it down;
     * returns what it received.
     */
    private static List<String> consumeAndStop(String topic, String group, int expected) throws Exception {
        Map<MessageQueue, Long> ends = new HashMap<>();
        broker.admin().examineTopicStats(topic).getOffsetTable()
                .forEach((queue, offsets) -> ends.put(queue, offsets.getMaxOffset()));
        MatrixClients.Received received = new MatrixClients.Received();
        DefaultMQPushConsumer consumer = MatrixClients.pushConsumer(broker.namesrvAddr(), group, topic, received);
        try {
            Await.until(expected + " messages for " + group, DELIVERY, () -> received.size() >= expected);
            Await.until(group + " consumed to the end", DELIVERY, () -> MatrixClients.consumedUpTo(consumer, ends));
            // The client commits what it consumed again and again (from 10 s after its start); so does the
            // test, now: a pull sent before the last message was consumed carries an older commit, which
            // the broker may apply after the newer one.
            broker.awaitCommitted(group, topic, ends.values().stream().mapToLong(Long::longValue).sum(),
                    () -> consumer.getDefaultMQPushConsumerImpl().persistConsumerOffset());
        } finally {
            consumer.shutdown();
        }
        assertThat(received.size()).as("nothing twice").isEqualTo(expected);
        return received.bodies();
    }


    private static List<MessageExt> poll(DefaultLitePullConsumer consumer, int expected) {
        List<MessageExt> got = new ArrayList<>();
        Await.until(expected + " polled messages", DELIVERY, () -> {
            got.addAll(consumer.poll(200));
            return got.size() >= expected;
        });
        assertThat(got).hasSize(expected);
        return got;
    }
}
