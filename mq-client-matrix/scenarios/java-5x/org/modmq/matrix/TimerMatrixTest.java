package org.modmq.matrix;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.apache.rocketmq.client.consumer.DefaultMQPushConsumer;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.client.producer.SendResult;
import org.apache.rocketmq.client.producer.SendStatus;
import org.apache.rocketmq.common.message.Message;
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
 * Timer messages ({@code Message#setDeliverTimeMs}, {@code setDelayTimeMs}), which only the 5.x client
 * lines have: compiled from {@code scenarios/java-5x} by the 5.x modules alone, against one
 * {@code bin/modmq} with the default timer keys, at the same time as {@code MessagingFeaturesMatrixTest}.
 * Only lower bounds on time are asserted.
 */
@Tag("integration")
@Timeout(value = 120, unit = TimeUnit.SECONDS)
@Execution(ExecutionMode.CONCURRENT)
class TimerMatrixTest {

    private static final Duration DELIVERY = Duration.ofSeconds(30);
    private static final long AHEAD_MILLIS = 2_000;

    @TempDir(cleanup = CleanupMode.ON_SUCCESS)
    static Path workDir;

    private static final MatrixClients.Shutdowns SHUTDOWNS = new MatrixClients.Shutdowns();
    private static MatrixBroker broker;
    private static DefaultMQProducer producer;

    @BeforeAll
    static void start() throws Exception {
        broker = MatrixBroker.start(workDir);
        producer = MatrixClients.producer(broker.namesrvAddr(), "pg_matrix_timer");
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
    void timerMessagesArriveNotBeforeTheirTimeWithTheMsgIdOfTheSend() throws Exception {
        String topic = "MatrixTimer";
        broker.createTopic(topic, 1);
        MatrixClients.Received received = new MatrixClients.Received();
        DefaultMQPushConsumer consumer = MatrixClients.pushConsumer(broker.namesrvAddr(), "cg_matrix_timer", topic,
                received);
        try {
            Message atTime = MatrixClients.message(topic, "T", "k-deliver", "deliver-ms");
            long deliverAt = System.currentTimeMillis() + AHEAD_MILLIS;
            atTime.setDeliverTimeMs(deliverAt);
            Message delayed = MatrixClients.message(topic, "T", "k-delay", "delay-ms");
            delayed.setDelayTimeMs(AHEAD_MILLIS);
            long sentAt = System.currentTimeMillis();
            SendResult first = producer.send(atTime);
            SendResult second = producer.send(delayed);
            assertThat(first.getSendStatus()).isEqualTo(SendStatus.SEND_OK);
            assertThat(second.getSendStatus()).isEqualTo(SendStatus.SEND_OK);
            Await.until("both timers", DELIVERY,
                    () -> received.first("deliver-ms").isPresent() && received.first("delay-ms").isPresent());

            MatrixClients.Delivery deliver = received.first("deliver-ms").orElseThrow();
            assertThat(deliver.arrivedAt()).as("arrival, not before the asked time").isGreaterThanOrEqualTo(deliverAt);
            assertThat(deliver.message().getMsgId()).isEqualTo(first.getMsgId());
            assertThat(deliver.message().getTopic()).isEqualTo(topic);
            MatrixClients.Delivery delay = received.first("delay-ms").orElseThrow();
            // The broker takes its "now" while the send is under way, after sentAt.
            assertThat(delay.arrivedAt() - sentAt).as("ms from the send to the arrival")
                    .isGreaterThanOrEqualTo(AHEAD_MILLIS);
            assertThat(delay.message().getMsgId()).isEqualTo(second.getMsgId());
            assertThat(delay.message().getKeys()).isEqualTo("k-delay");
        } finally {
            SHUTDOWNS.start(consumer::shutdown);
        }
        assertThat(received.bodies()).containsExactlyInAnyOrder("deliver-ms", "delay-ms");
    }
}
