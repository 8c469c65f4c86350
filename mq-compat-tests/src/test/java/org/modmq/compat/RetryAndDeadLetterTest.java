package org.modmq.compat;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.rocketmq.client.consumer.DefaultMQPushConsumer;
import org.apache.rocketmq.client.impl.MQClientAPIImpl;
import org.apache.rocketmq.client.producer.SendStatus;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.common.message.MessageExt;
import org.apache.rocketmq.common.message.MessageQueue;
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

/**
 * Retries and dead letters with the stock 5.3.3 push consumer against the distribution, with short
 * levels ({@code messageDelayLevel=1s 1s 1s 2s 3s}): a RECONSUME_LATER comes back with reconsumeTimes 1
 * after level 3, then 2 after level 4; after {@code maxReconsumeTimes} the message lands in
 * {@code %DLQ%group}; delayed messages pending at a SIGKILL are all delivered after the restart.
 */
@Tag("integration")
@Timeout(value = 90, unit = TimeUnit.SECONDS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class RetryAndDeadLetterTest {

    private static final Duration DELIVERY_TIMEOUT = Duration.ofSeconds(30);

    @TempDir(cleanup = CleanupMode.ON_SUCCESS)
    static Path workDir;

    private static ModmqCluster cluster;

    @BeforeAll
    static void startCluster() throws Exception {
        cluster = ModmqCluster.start(workDir, 1, Map.of("messageDelayLevel", "1s 1s 1s 2s 3s",
                "flushConsumerOffsetInterval", "1000"));
    }

    @AfterAll
    static void stopCluster() {
        if (cluster != null) {
            cluster.close();
        }
    }

    private static MQClientAPIImpl api() {
        return cluster.admin().ext().getDefaultMQAdminExtImpl().getMqClientInstance().getMQClientAPIImpl();
    }

    private static long maxOffset(String topic) {
        try {
            return api().getMaxOffset(cluster.brokerAddr(), new MessageQueue(topic, cluster.brokerName(), 0), 3_000);
        } catch (Exception e) {
            return -1;
        }
    }

    private static void send(Message message) throws Exception {
        assertThat(cluster.producer().send(message).getSendStatus()).isEqualTo(SendStatus.SEND_OK);
    }

    @Test
    @Order(1)
    void reconsumeLaterComesBackAfterLevelThreeThenLevelFour() throws Exception {
        String topic = "RetryLevels";
        cluster.createTopic(topic, 1);
        RecordingListener listener = new RecordingListener(message -> message.getReconsumeTimes() < 2);
        DefaultMQPushConsumer consumer = listener.start(cluster.namesrvAddr(), "cg_retry_levels", topic, 16);
        try {
            send(StockClients.message(topic, "T", "retry-key", "retry-me"));
            Await.until("three deliveries", DELIVERY_TIMEOUT, () -> listener.deliveries().size() >= 3);
            List<RecordingListener.Delivery> got = listener.deliveries();
            assertThat(got).extracting(d -> d.message().getReconsumeTimes()).containsExactly(0, 1, 2);
            assertThat(got).extracting(d -> d.message().getTopic()).containsOnly(topic);
            assertThat(got).extracting(d -> d.message().getKeys()).containsOnly("retry-key");
            assertThat(got).extracting(d -> d.message().getMsgId()).containsOnly(got.get(0).message().getMsgId());
            long firstWait = got.get(1).arrivedAt() - got.get(0).arrivedAt();
            long secondWait = got.get(2).arrivedAt() - got.get(1).arrivedAt();
            System.out.printf("[retry] back after %d ms (level 3 = 1 s), then %d ms (level 4 = 2 s)%n", firstWait,
                    secondWait);
            assertThat(firstWait).as("level 3 = 1 s").isBetween(900L, 3_000L);
            assertThat(secondWait).as("level 4 = 2 s").isBetween(1_900L, 4_000L);
        } finally {
            StockClients.shutdownAll(consumer::shutdown);
        }
    }

    @Test
    @Order(2)
    void afterMaxReconsumeTimesTheMessageIsInTheDeadLetterQueue() throws Exception {
        String topic = "RetryToDlq";
        String dlq = "%DLQ%cg_retry_dlq";
        cluster.createTopic(topic, 1);
        RecordingListener listener = new RecordingListener(message -> true);
        DefaultMQPushConsumer consumer = listener.start(cluster.namesrvAddr(), "cg_retry_dlq", topic, 2);
        try {
            send(StockClients.message(topic, "T", "dlq-key", "never-ok"));
            Await.until("the message in " + dlq, DELIVERY_TIMEOUT, () -> maxOffset(dlq) == 1);
            assertThat(listener.deliveries()).extracting(d -> d.message().getReconsumeTimes())
                    .containsExactly(0, 1, 2);
            QueueReadBack.Stored stored = QueueReadBack.read(api(), cluster.brokerAddr(), dlq, 1, DELIVERY_TIMEOUT);
            assertThat(stored.keys()).containsExactly(Map.entry("dlq-key", 1));
            var config = cluster.admin().ext().examineTopicConfig(cluster.brokerAddr(), dlq);
            assertThat(config.getReadQueueNums()).isEqualTo(1);
            assertThat(config.getWriteQueueNums()).isEqualTo(1);
            assertThat(config.getPerm()).isEqualTo(6);
        } finally {
            StockClients.shutdownAll(consumer::shutdown);
        }
    }

    @Test
    @Order(3)
    void delayedMessagesPendingAtAKillAreAllDeliveredAfterTheRestart() throws Exception {
        String topic = "DelayedCrash";
        cluster.createTopic(topic, 2);
        RecordingListener listener = new RecordingListener(message -> false);
        DefaultMQPushConsumer consumer = listener.start(cluster.namesrvAddr(), "cg_delay_crash", topic, 16);
        try {
            List<String> delivered = new ArrayList<>();
            for (int i = 0; i < 10; i++) {
                Message message = StockClients.message(topic, "T", "early-" + i, "early-" + i);
                message.setDelayTimeLevel(1);
                send(message);
                delivered.add("early-" + i);
            }
            Await.until("the level-1 messages", DELIVERY_TIMEOUT, () -> keys(listener).keySet().containsAll(delivered));
            List<String> pending = new ArrayList<>();
            for (int i = 0; i < 20; i++) {
                Message message = StockClients.message(topic, "T", "pending-" + i, "pending-" + i);
                message.setDelayTimeLevel(i % 2 == 0 ? 4 : 5);
                send(message);
                pending.add("pending-" + i);
            }
            // Sent and acknowledged; due in 2 s and 3 s. The broker dies before any of them is due.
            cluster.killAndRestartBroker();
            Await.until("every message after the restart", DELIVERY_TIMEOUT,
                    () -> keys(listener).keySet().containsAll(pending));
            Map<String, Integer> keys = keys(listener);
            QueueReadBack.Stored stored = QueueReadBack.read(api(), cluster.brokerAddr(), topic, 2, DELIVERY_TIMEOUT);
            System.out.printf("[delay-kill] %d deliveries of %d messages (early ones twice: %d); %s holds %d rows%n",
                    listener.deliveries().size(), delivered.size() + pending.size(),
                    delivered.stream().filter(key -> keys.getOrDefault(key, 0) > 1).count(), topic, stored.rows());
            assertThat(keys.keySet()).containsAll(delivered);
            // None of the pending ones was due before the kill, so the broker stored each in the topic exactly
            // once; an early one may be there twice (re-delivered from the last persisted delay offset, as in
            // RocketMQ), and any may reach the consumer twice (its offsets, too, are persisted periodically).
            pending.forEach(key -> assertThat(stored.keys().get(key)).as(key).isEqualTo(1));
            assertThat(stored.keys().keySet()).containsAll(delivered);
        } finally {
            StockClients.shutdownAll(consumer::shutdown);
        }
    }

    private static Map<String, Integer> keys(RecordingListener listener) {
        Map<String, Integer> keys = new HashMap<>();
        for (RecordingListener.Delivery delivery : listener.deliveries()) {
            MessageExt message = delivery.message();
            keys.merge(message.getKeys(), 1, Integer::sum);
        }
        return keys;
    }
}
