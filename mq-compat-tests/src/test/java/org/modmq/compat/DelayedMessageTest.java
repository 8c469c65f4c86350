package org.modmq.compat;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.rocketmq.client.consumer.DefaultMQPushConsumer;
import org.apache.rocketmq.client.producer.SendResult;
import org.apache.rocketmq.client.producer.SendStatus;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.common.message.MessageExt;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;
import org.modmq.testkit.process.Await;

/**
 * A delayed message with the default {@code messageDelayLevel}, through the distribution with the stock
 * 5.3.3 client: level 2 (5 s) reaches a push consumer 5 s after the send.
 */
@Tag("integration")
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class DelayedMessageTest {

    @TempDir(cleanup = CleanupMode.ON_SUCCESS)
    static Path workDir;

    private static ModmqCluster cluster;

    @BeforeAll
    static void startCluster() throws Exception {
        cluster = ModmqCluster.start(workDir, 1, Map.of());
    }

    @AfterAll
    static void stopCluster() {
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    void levelTwoArrivesFiveSecondsAfterTheSend() throws Exception {
        String topic = "DelayedDefault";
        cluster.createTopic(topic, 1);
        RecordingListener received = new RecordingListener(message -> false);
        DefaultMQPushConsumer consumer = received.start(cluster.namesrvAddr(), "cg_delay_default", topic, 16);
        try {
            Await.until("queue of " + topic + " assigned", Duration.ofSeconds(30),
                    () -> !StockClients.assignedQueues(consumer, topic).isEmpty());
            // A first send finds the route and connects, so the measured one is only the send itself.
            assertThat(cluster.producer().send(StockClients.message(topic, "T", "warm-up", "warm-up")).getSendStatus())
                    .isEqualTo(SendStatus.SEND_OK);
            Await.until("warm-up received", Duration.ofSeconds(15), () -> !received.deliveries().isEmpty());
            Message message = StockClients.message(topic, "T", "delayed-key", "delayed");
            message.setDelayTimeLevel(2);
            long sentAt = System.currentTimeMillis();
            SendResult sent = cluster.producer().send(message);
            long sendReturned = System.currentTimeMillis();
            assertThat(sent.getSendStatus()).isEqualTo(SendStatus.SEND_OK);
            assertThat(sent.getMessageQueue().getTopic()).isEqualTo(topic);
            Await.until("delayed message received", Duration.ofSeconds(15), () -> received.deliveries().size() >= 2);
            long arrivedAt = received.deliveries().get(1).arrivedAt();
            MessageExt got = received.deliveries().get(1).message();
            assertThat(got.getMsgId()).isEqualTo(sent.getMsgId());
            assertThat(got.getTopic()).isEqualTo(topic);
            assertThat(got.getProperty("DELAY")).isNull();
            assertThat(got.getProperty("REAL_TOPIC")).as("kept, as RocketMQ keeps it").isEqualTo(topic);
            System.out.printf("[delay] level 2: arrived %d ms after the send began, %d ms after it was acknowledged "
                    + "(stored again %d ms after its birth, reached the listener %d ms after that)%n",
                    arrivedAt - sentAt, arrivedAt - sendReturned, got.getStoreTimestamp() - got.getBornTimestamp(),
                    arrivedAt - got.getStoreTimestamp());
            // 5 s +- 0.3 s after the send: not earlier than 4.7 s after it began, not later than 5.3 s after its answer.
            assertThat(arrivedAt - sentAt).as("ms from the start of the send to the arrival").isGreaterThanOrEqualTo(4_700L);
            assertThat(arrivedAt - sendReturned).as("ms from the send's answer to the arrival").isLessThanOrEqualTo(5_300L);
        } finally {
            StockClients.shutdownAll(consumer::shutdown);
        }
    }
}
