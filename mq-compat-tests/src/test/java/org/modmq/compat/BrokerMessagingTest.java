package org.modmq.compat;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.apache.rocketmq.client.consumer.DefaultLitePullConsumer;
import org.apache.rocketmq.client.consumer.DefaultMQPushConsumer;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.client.producer.SendCallback;
import org.apache.rocketmq.client.producer.SendResult;
import org.apache.rocketmq.client.producer.SendStatus;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.common.message.MessageExt;
import org.apache.rocketmq.common.message.MessageQueue;
import org.apache.rocketmq.remoting.protocol.heartbeat.MessageModel;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;
import org.modmq.testkit.process.Await;

/**
 * Producing and consuming through one name server and one broker from the distribution with the
 * stock 5.3.3 client: every send mode, tags and keys, lite pull with assign and seek, push consumers
 * clustering and broadcasting, tag filters. Each test uses its own topic and groups.
 */
@Tag("integration")
@Timeout(value = 90, unit = TimeUnit.SECONDS)
class BrokerMessagingTest {

    private static final Duration DELIVERY_TIMEOUT = Duration.ofSeconds(30);

    @TempDir(cleanup = CleanupMode.ON_SUCCESS)
    static Path workDir;

    private static ModmqCluster cluster;
    /** Consumers are shut down in the background once a test is done with them. */
    private static final ClientShutdowns SHUTDOWNS = new ClientShutdowns();

    @BeforeAll
    static void startCluster() throws Exception {
        cluster = ModmqCluster.start(workDir, 1, Map.of());
    }

    @AfterAll
    static void stopCluster() {
        SHUTDOWNS.close();
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    void syncAsyncOnewayAndBatchSendsAllArriveOnce() throws Exception {
        String topic = "SendModes";
        cluster.createTopic(topic, 4);
        DefaultMQProducer producer = cluster.producer();
        SendResult sync = producer.send(message(topic, "TagA", "k-sync", "sync"));
        assertThat(sync.getSendStatus()).isEqualTo(SendStatus.SEND_OK);
        assertThat(sync.getMessageQueue().getTopic()).isEqualTo(topic);
        assertThat(sync.getMessageQueue().getBrokerName()).isEqualTo(cluster.brokerName());
        assertThat(sync.getOffsetMsgId()).hasSize(32);

        CompletableFuture<SendResult> async = new CompletableFuture<>();
        producer.send(message(topic, "TagA", "k-async", "async"), new SendCallback() {
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

        producer.sendOneway(message(topic, "TagA", "k-oneway", "oneway"));

        List<Message> batch = IntStream.range(0, 5)
                .mapToObj(i -> message(topic, "TagB", "k-batch-" + i, "batch-" + i)).toList();
        SendResult batchResult = producer.send(batch);
        assertThat(batchResult.getSendStatus()).isEqualTo(SendStatus.SEND_OK);
        // One msgId per message of the batch, comma-joined on the wire.
        assertThat(batchResult.getOffsetMsgId().split(",")).hasSize(5);

        List<MessageExt> all = pullAll(topic, 8);
        assertThat(all).extracting(m -> new String(m.getBody(), UTF_8)).containsExactlyInAnyOrder(
                "sync", "async", "oneway", "batch-0", "batch-1", "batch-2", "batch-3", "batch-4");
        assertThat(all).filteredOn(m -> new String(m.getBody(), UTF_8).equals("sync")).singleElement()
                .satisfies(m -> {
                    assertThat(m.getTags()).isEqualTo("TagA");
                    assertThat(m.getKeys()).isEqualTo("k-sync");
                    assertThat(m.getTopic()).isEqualTo(topic);
                });
        assertThat(all).filteredOn(m -> "TagB".equals(m.getTags())).extracting(MessageExt::getKeys)
                .containsExactlyInAnyOrder("k-batch-0", "k-batch-1", "k-batch-2", "k-batch-3", "k-batch-4");
        assertThat(all).filteredOn(m -> new String(m.getBody(), UTF_8).equals("sync")).singleElement()
                .satisfies(m -> assertThat(m.getMsgId()).isEqualTo(sync.getMsgId()));
        // Each message of the batch is consumed with its own id, the one the producer reported for it (the
        // client also gives the batch an id of its own, in the request header).
        assertThat(all).filteredOn(m -> "TagB".equals(m.getTags())).extracting(MessageExt::getMsgId)
                .containsExactlyInAnyOrder(batchResult.getMsgId().split(","));
    }

    @Test
    void litePullAssignAndSeekReadsFromTheGivenOffset() throws Exception {
        String topic = "LitePullSeek";
        cluster.createTopic(topic, 1);
        for (int i = 0; i < 10; i++) {
            assertThat(cluster.producer().send(message(topic, "T", "k" + i, "m" + i)).getSendStatus())
                    .isEqualTo(SendStatus.SEND_OK);
        }
        DefaultLitePullConsumer consumer = StockClients.litePullConsumer(cluster.namesrvAddr(), "cg_lite_pull");
        try {
            Collection<MessageQueue> queues = consumer.fetchMessageQueues(topic);
            assertThat(queues).hasSize(1);
            MessageQueue queue = queues.iterator().next();
            consumer.assign(queues);
            consumer.seek(queue, 6);
            List<MessageExt> got = pollUntil(consumer, 4);
            assertThat(got).extracting(MessageExt::getQueueOffset).containsExactly(6L, 7L, 8L, 9L);
            assertThat(got).extracting(m -> new String(m.getBody(), UTF_8)).containsExactly("m6", "m7", "m8", "m9");
            assertThat(got).extracting(MessageExt::getKeys).containsExactly("k6", "k7", "k8", "k9");

            consumer.seekToBegin(queue);
            List<MessageExt> fromBegin = pollUntil(consumer, 10);
            assertThat(fromBegin).extracting(MessageExt::getQueueOffset)
                    .containsExactly(0L, 1L, 2L, 3L, 4L, 5L, 6L, 7L, 8L, 9L);
        } finally {
            SHUTDOWNS.start(consumer::shutdown);
        }
    }

    @Test
    void twoClusteringConsumersShareTheQueuesAndSeeEachMessageOnce() throws Exception {
        String topic = "Clustering";
        cluster.createTopic(topic, 4);
        StockClients.Received first = new StockClients.Received();
        StockClients.Received second = new StockClients.Received();
        DefaultMQPushConsumer a = StockClients.pushConsumer(cluster.namesrvAddr(), "cg_clustering", topic, "*",
                MessageModel.CLUSTERING, first);
        DefaultMQPushConsumer b = StockClients.pushConsumer(cluster.namesrvAddr(), "cg_clustering", topic, "*",
                MessageModel.CLUSTERING, second);
        try {
            // Produce only once the group's rebalancing has settled: two queues each, disjoint.
            // Before that, the consumer that started first may hold (and drain) all four.
            Await.until("each consumer assigned two queues of " + topic, DELIVERY_TIMEOUT, () -> {
                Set<MessageQueue> ofA = StockClients.assignedQueues(a, topic);
                Set<MessageQueue> ofB = StockClients.assignedQueues(b, topic);
                return ofA.size() == 2 && ofB.size() == 2 && Collections.disjoint(ofA, ofB);
            });
            Set<Integer> queuesOfA = queueIds(StockClients.assignedQueues(a, topic));
            Set<Integer> queuesOfB = queueIds(StockClients.assignedQueues(b, topic));
            List<String> sent = cluster.produce(topic, "T", 40);
            Await.until("40 messages across both consumers", DELIVERY_TIMEOUT, () -> first.size() + second.size() >= 40);
            List<String> together = new ArrayList<>(first.bodies());
            together.addAll(second.bodies());
            assertThat(together).containsExactlyInAnyOrderElementsOf(sent);
            // Round-robin sends put 10 on each queue; each consumer saw exactly its own two queues.
            assertThat(first.messages()).hasSize(20).allSatisfy(m -> assertThat(queuesOfA).contains(m.getQueueId()));
            assertThat(second.messages()).hasSize(20).allSatisfy(m -> assertThat(queuesOfB).contains(m.getQueueId()));
        } finally {
            SHUTDOWNS.start(a::shutdown);
            SHUTDOWNS.start(b::shutdown);
        }
    }

    @Test
    void broadcastingDeliversEveryMessageToEveryConsumer() throws Exception {
        String topic = "Broadcasting";
        cluster.createTopic(topic, 2);
        StockClients.Received first = new StockClients.Received();
        StockClients.Received second = new StockClients.Received();
        DefaultMQPushConsumer a = StockClients.pushConsumer(cluster.namesrvAddr(), "cg_broadcast", topic, "*",
                MessageModel.BROADCASTING, first);
        DefaultMQPushConsumer b = StockClients.pushConsumer(cluster.namesrvAddr(), "cg_broadcast", topic, "*",
                MessageModel.BROADCASTING, second);
        try {
            List<String> sent = cluster.produce(topic, "T", 10);
            Await.until("10 messages at each consumer", DELIVERY_TIMEOUT, () -> first.size() >= 10 && second.size() >= 10);
            assertThat(first.bodies()).containsExactlyInAnyOrderElementsOf(sent);
            assertThat(second.bodies()).containsExactlyInAnyOrderElementsOf(sent);
        } finally {
            SHUTDOWNS.start(a::shutdown);
            SHUTDOWNS.start(b::shutdown);
        }
    }

    @Test
    void tagFilterDeliversOnlyMatchingTags() throws Exception {
        String topic = "TagFilter";
        cluster.createTopic(topic, 2);
        StockClients.Received received = new StockClients.Received();
        DefaultMQPushConsumer consumer = StockClients.pushConsumer(cluster.namesrvAddr(), "cg_tags", topic,
                "TagA || TagC", MessageModel.CLUSTERING, received);
        try {
            List<String> wanted = new ArrayList<>(cluster.produce(topic, "TagA", 5));
            cluster.produce(topic, "TagB", 5);
            wanted.addAll(cluster.produce(topic, "TagC", 5));
            // A marker after everything else, on every queue: once it is in, every earlier message was
            // dispatched and filtered.
            wanted.addAll(cluster.produce(topic, "TagA", 2));
            Await.until("12 matching messages", DELIVERY_TIMEOUT, () -> received.size() >= 12);
            assertThat(received.bodies()).containsExactlyInAnyOrderElementsOf(wanted);
            assertThat(received.messages()).extracting(MessageExt::getTags).containsOnly("TagA", "TagC");
        } finally {
            SHUTDOWNS.start(consumer::shutdown);
        }
    }

    private static Message message(String topic, String tag, String keys, String body) {
        return StockClients.message(topic, tag, keys, body);
    }

    private static Set<Integer> queueIds(Set<MessageQueue> queues) {
        return queues.stream().map(MessageQueue::getQueueId).collect(Collectors.toSet());
    }

    /** Reads every queue of {@code topic} from offset 0 until {@code expected} messages are in. */
    private static List<MessageExt> pullAll(String topic, int expected) throws Exception {
        DefaultLitePullConsumer consumer = StockClients.litePullConsumer(cluster.namesrvAddr(), "cg_pull_" + topic);
        try {
            Collection<MessageQueue> queues = consumer.fetchMessageQueues(topic);
            consumer.assign(queues);
            for (MessageQueue queue : queues) {
                consumer.seek(queue, 0);
            }
            return pollUntil(consumer, expected);
        } finally {
            SHUTDOWNS.start(consumer::shutdown);
        }
    }

    private static List<MessageExt> pollUntil(DefaultLitePullConsumer consumer, int expected) {
        List<MessageExt> got = new ArrayList<>();
        Await.until(expected + " polled messages", DELIVERY_TIMEOUT, () -> {
            got.addAll(consumer.poll(200));
            return got.size() >= expected;
        });
        assertThat(got).hasSize(expected);
        return got;
    }
}
