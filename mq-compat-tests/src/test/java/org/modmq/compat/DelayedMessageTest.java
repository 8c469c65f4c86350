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
            Message message = StockClients.message(topic, "T", "delayed-key", "delayed");
            message.setDelayTimeLevel(2);
            long sentAt = System.currentTimeMillis();
            SendResult sent = cluster.producer().send(message);
            assertThat(sent.getSendStatus()).isEqualTo(SendStatus.SEND_OK);
            assertThat(sent.getMessageQueue().getTopic()).isEqualTo(topic);
            Await.until("delayed message received", Duration.ofSeconds(15), () -> !received.deliveries().isEmpty());
            long arrivedAt = received.deliveries().get(0).arrivedAt();
            MessageExt got = received.deliveries().get(0).message();
            assertThat(got.getMsgId()).isEqualTo(sent.getMsgId());
            assertThat(got.getTopic()).isEqualTo(topic);
            assertThat(got.getProperty("DELAY")).isNull();
            assertThat(got.getProperty("REAL_TOPIC")).as("kept, as RocketMQ keeps it").isEqualTo(topic);
            System.out.printf("[delay] level 2: %d ms from the send to the arrival, stored again %d ms after its birth%n",
                    arrivedAt - sentAt, got.getStoreTimestamp() - got.getBornTimestamp());
            assertThat(arrivedAt - sentAt).as("ms from the send to the arrival").isBetween(4_700L, 5_300L);
            assertThat(got.getStoreTimestamp() - got.getBornTimestamp()).as("stored again 5 s after it was born")
                    .isBetween(4_700L, 5_300L);
        } finally {
            StockClients.shutdownAll(consumer::shutdown);
        }
    }
}
