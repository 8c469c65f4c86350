package org.modmq.compat;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.apache.rocketmq.client.consumer.DefaultMQPushConsumer;
import org.apache.rocketmq.client.consumer.listener.ConsumeConcurrentlyStatus;
import org.apache.rocketmq.client.consumer.listener.MessageListenerConcurrently;
import org.apache.rocketmq.client.exception.MQBrokerException;
import org.apache.rocketmq.client.producer.SendResult;
import org.apache.rocketmq.client.producer.SendStatus;
import org.apache.rocketmq.common.consumer.ConsumeFromWhere;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.common.message.MessageExt;
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
 * Timer messages from the stock 5.3.3 client ({@code setDelayTimeMs}, {@code setDeliverTimeMs},
 * {@code setDelayTimeSec}) against one broker of the distribution with the default keys
 * ({@code timerPrecisionMs=100}): a timer arrives on time, a too-long delay is refused with RocketMQ's
 * code, and a pending timer survives a kill -9 of the broker.
 */
@Tag("integration")
@Timeout(value = 90, unit = TimeUnit.SECONDS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class TimerMessageTest {

    @TempDir(cleanup = CleanupMode.ON_SUCCESS)
    static Path workDir;

    private static ModmqCluster cluster;
    private static DefaultMQPushConsumer consumer;
    /** Body → when the consumer's listener saw it (ms). */
    private static final Map<String, Long> RECEIVED = new ConcurrentHashMap<>();
    private static final Map<String, MessageExt> MESSAGES = new ConcurrentHashMap<>();
    private static final String TOPIC = "TimerTopic";

    @BeforeAll
    static void start() throws Exception {
        cluster = ModmqCluster.start(workDir, 1, Map.of());
        cluster.createTopic(TOPIC, 1);
        consumer = new DefaultMQPushConsumer("cg_timer");
        consumer.setNamesrvAddr(cluster.namesrvAddr());
        consumer.setInstanceName(StockClients.instanceName("timer"));
        consumer.setConsumeFromWhere(ConsumeFromWhere.CONSUME_FROM_FIRST_OFFSET);
        consumer.setPollNameServerInterval(1_000);
        consumer.setHeartbeatBrokerInterval(1_000);
        consumer.subscribe(TOPIC, "*");
        consumer.registerMessageListener((MessageListenerConcurrently) (batch, context) -> {
            long now = System.currentTimeMillis();
            for (MessageExt message : batch) {
                String body = new String(message.getBody(), UTF_8);
                RECEIVED.putIfAbsent(body, now);
                MESSAGES.putIfAbsent(body, message);
            }
            return ConsumeConcurrentlyStatus.CONSUME_SUCCESS;
        });
        consumer.start();
        Await.until("consumer assigned " + TOPIC, Duration.ofSeconds(30),
                () -> !StockClients.assignedQueues(consumer, TOPIC).isEmpty());
        // A plain message first, so that the consumer is pulling (long polling) when the timers fall due.
        cluster.producer().send(new Message(TOPIC, "warm-up".getBytes(UTF_8)));
        Await.until("warm-up consumed", Duration.ofSeconds(30), () -> RECEIVED.containsKey("warm-up"));
    }

    @AfterAll
    static void stop() {
        StockClients.shutdownAll(() -> {
            if (consumer != null) {
                consumer.shutdown();
            }
        });
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    @Order(1)
    void aTimerThreeSecondsAheadArrivesThreeSecondsLaterWithinAFewTenthsOfASecond() throws Exception {
        Message delayed = new Message(TOPIC, "TagT", "delay-ms".getBytes(UTF_8));
        delayed.setDelayTimeMs(3_000);
        long delaySent = System.currentTimeMillis();
        SendResult first = cluster.producer().send(delayed);
        long delayAnswered = System.currentTimeMillis();
        Message atTime = new Message(TOPIC, "TagT", "deliver-ms".getBytes(UTF_8));
        long deliverAt = System.currentTimeMillis() + 3_000;
        atTime.setDeliverTimeMs(deliverAt);
        SendResult second = cluster.producer().send(atTime);
        assertThat(first.getSendStatus()).isEqualTo(SendStatus.SEND_OK);
        assertThat(second.getSendStatus()).isEqualTo(SendStatus.SEND_OK);
        long early = delaySent + 2_800 - System.currentTimeMillis();
        if (early > 0) {
            Thread.sleep(early);
            assertThat(RECEIVED).doesNotContainKeys("delay-ms", "deliver-ms");
        }

        Await.until("both timers consumed", Duration.ofSeconds(10),
                () -> RECEIVED.containsKey("delay-ms") && RECEIVED.containsKey("deliver-ms"));
        // The figures for the README; the assertions below are the contract.
        System.out.printf("timer 3 s ahead: setDeliverTimeMs received %d ms after the asked time, setDelayTimeMs "
                        + "%d ms after the send (answered after %d ms)%n", RECEIVED.get("deliver-ms") - deliverAt,
                RECEIVED.get("delay-ms") - delaySent, delayAnswered - delaySent);
        assertThat(RECEIVED.get("deliver-ms") - deliverAt).isBetween(0L, 300L);
        // The broker took "now" while the send was under way.
        assertThat(RECEIVED.get("delay-ms") - delaySent).isGreaterThanOrEqualTo(3_000L);
        assertThat(RECEIVED.get("delay-ms") - delayAnswered).isLessThanOrEqualTo(3_300L);
        MessageExt received = MESSAGES.get("delay-ms");
        assertThat(received.getTopic()).isEqualTo(TOPIC);
        assertThat(received.getTags()).isEqualTo("TagT");
        assertThat(received.getMsgId()).isEqualTo(first.getMsgId());
        assertThat(received.getProperties()).containsKeys("TIMER_OUT_MS", "TIMER_DELAY_MS")
                .doesNotContainKeys("REAL_TOPIC", "REAL_QID");
    }

    @Test
    @Order(2)
    void aDelayBeyondTimerMaxDelaySecIsRefusedWithMessageIllegal() {
        Message tooLate = new Message(TOPIC, "too-late".getBytes(UTF_8));
        tooLate.setDelayTimeSec(259_201);
        assertThatThrownBy(() -> cluster.producer().send(tooLate))
                .isInstanceOfSatisfying(MQBrokerException.class, e -> {
                    assertThat(e.getResponseCode()).isEqualTo(13);
                    assertThat(e.getErrorMessage()).contains("max delay 259200000ms");
                });
    }

    @Test
    @Order(3)
    void aPendingTimerSurvivesKillMinusNineOfTheBroker() throws Exception {
        Message survivor = new Message(TOPIC, "survivor".getBytes(UTF_8));
        survivor.setDelayTimeSec(6);
        long sentAt = System.currentTimeMillis();
        assertThat(cluster.producer().send(survivor).getSendStatus()).isEqualTo(SendStatus.SEND_OK);
        Thread.sleep(500);
        cluster.killAndRestartBroker();
        Await.until("the timer consumed after the restart", Duration.ofSeconds(45),
                () -> RECEIVED.containsKey("survivor"));
        System.out.printf("timer 6 s ahead, broker killed after 0.5 s: received after %d ms%n",
                RECEIVED.get("survivor") - sentAt);
        assertThat(RECEIVED.get("survivor") - sentAt).isGreaterThanOrEqualTo(6_000L);
    }
}
