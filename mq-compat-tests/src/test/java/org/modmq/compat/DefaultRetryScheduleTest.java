package org.modmq.compat;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.rocketmq.client.consumer.DefaultMQPushConsumer;
import org.apache.rocketmq.client.producer.SendStatus;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import org.modmq.testkit.process.Await;

/**
 * The retry schedule users see with RocketMQ's default {@code messageDelayLevel}: a stock 5.3.3 push
 * consumer that answers RECONSUME_LATER gets the message back 10 s later (level 3) with reconsumeTimes 1,
 * then 30 s after that (level 4) with reconsumeTimes 2. The class mostly waits, so it runs beside the
 * other classes of this module ({@link ExecutionMode#CONCURRENT}) instead of adding 40 s to the suite.
 */
@Tag("integration")
@Execution(ExecutionMode.CONCURRENT)
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class DefaultRetryScheduleTest {

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
    void reconsumeLaterComesBackAfterTenSecondsThenThirty() throws Exception {
        String topic = "DefaultRetrySchedule";
        cluster.createTopic(topic, 1);
        RecordingListener listener = new RecordingListener(message -> message.getReconsumeTimes() < 2);
        DefaultMQPushConsumer consumer = listener.start(cluster.namesrvAddr(), "cg_default_schedule", topic, 16);
        try {
            assertThat(cluster.producer().send(StockClients.message(topic, "T", "schedule-key", "retry-me"))
                    .getSendStatus()).isEqualTo(SendStatus.SEND_OK);
            Await.until("three deliveries", Duration.ofSeconds(100), () -> listener.deliveries().size() >= 3);
            List<RecordingListener.Delivery> got = listener.deliveries();
            assertThat(got).extracting(d -> d.message().getReconsumeTimes()).containsExactly(0, 1, 2);
            assertThat(got).extracting(d -> d.message().getMsgId()).containsOnly(got.get(0).message().getMsgId());
            long firstWait = got.get(1).arrivedAt() - got.get(0).arrivedAt();
            long secondWait = got.get(2).arrivedAt() - got.get(1).arrivedAt();
            System.out.printf("[retry] default levels: back after %d ms (level 3 = 10 s), then %d ms (level 4 = 30 s)%n",
                    firstWait, secondWait);
            // Never early; late by at most the consumer's pull and the send-back round trip.
            assertThat(firstWait).as("level 3 = 10 s").isBetween(10_000L, 12_000L);
            assertThat(secondWait).as("level 4 = 30 s").isBetween(30_000L, 32_000L);
        } finally {
            StockClients.shutdownAll(consumer::shutdown);
        }
    }
}
