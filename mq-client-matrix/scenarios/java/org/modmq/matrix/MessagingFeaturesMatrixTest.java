package org.modmq.matrix;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.apache.rocketmq.client.consumer.DefaultLitePullConsumer;
import org.apache.rocketmq.client.consumer.DefaultMQPushConsumer;
import org.apache.rocketmq.client.consumer.listener.ConsumeConcurrentlyStatus;
import org.apache.rocketmq.client.consumer.listener.MessageListenerConcurrently;
import org.apache.rocketmq.client.exception.MQClientException;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.client.producer.LocalTransactionState;
import org.apache.rocketmq.client.producer.SendStatus;
import org.apache.rocketmq.client.producer.TransactionListener;
import org.apache.rocketmq.client.producer.TransactionMQProducer;
import org.apache.rocketmq.client.producer.TransactionSendResult;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.common.message.MessageExt;
import org.apache.rocketmq.common.message.MessageQueue;
import org.apache.rocketmq.tools.admin.DefaultMQAdminExt;
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
 * Delay levels, retries with the dead-letter queue, and transactional messages, with the API every client
 * line has ({@code Message#setDelayTimeLevel}, {@code setMaxReconsumeTimes} and {@code RECONSUME_LATER},
 * {@code TransactionMQProducer} with a {@code TransactionListener}), against one {@code bin/modmq} with
 * short levels and check-back times. The scenarios mostly wait for the broker, so they run at the same
 * time, and at the same time as the 5.x lines' {@code TimerMatrixTest} ({@code CONCURRENT}; the
 * {@code @Isolated} {@code ClientMatrixTest} runs alone). Only lower bounds on time are asserted ("not
 * before the delay"); upper ones are generous time-outs.
 */
@Tag("integration")
@Timeout(value = 120, unit = TimeUnit.SECONDS)
@Execution(ExecutionMode.CONCURRENT)
class MessagingFeaturesMatrixTest {

    private static final Duration DELIVERY = Duration.ofSeconds(30);
    /** Level 2 is the delayed scenario's; a retry goes to level 3 + reconsumeTimes, so levels 3 and 4 are short. */
    private static final String DELAY_LEVELS = "1s 2s 1s 1s";
    private static final long LEVEL_2_MILLIS = 2_000;
    private static final int MAX_RECONSUME_TIMES = 2;
    /** Check-back passes every 500 ms for half messages older than 1 s. */
    private static final long CHECK_INTERVAL_MILLIS = 500;
    private static final long TRANSACTION_TIMEOUT_MILLIS = 1_000;

    @TempDir(cleanup = CleanupMode.ON_SUCCESS)
    static Path workDir;

    private static final MatrixClients.Shutdowns SHUTDOWNS = new MatrixClients.Shutdowns();
    private static MatrixBroker broker;
    private static DefaultMQProducer producer;

    @BeforeAll
    static void start() throws Exception {
        broker = MatrixBroker.start(workDir, Map.of("messageDelayLevel", DELAY_LEVELS,
                "transactionCheckInterval", Long.toString(CHECK_INTERVAL_MILLIS),
                "transactionTimeOut", Long.toString(TRANSACTION_TIMEOUT_MILLIS)));
        producer = MatrixClients.producer(broker.namesrvAddr(), "pg_matrix_features");
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
    void aMessageWithDelayLevelTwoArrivesNotBeforeTheLevelsDelay() throws Exception {
        String topic = "MatrixDelay";
        broker.createTopic(topic, 1);
        MatrixClients.Received received = new MatrixClients.Received();
        DefaultMQPushConsumer consumer = MatrixClients.pushConsumer(broker.namesrvAddr(), "cg_matrix_delay", topic,
                received);
        try {
            Message delayed = MatrixClients.message(topic, "T", "k-delayed", "delayed");
            delayed.setDelayTimeLevel(2);
            long sentAt = System.currentTimeMillis();
            assertThat(producer.send(delayed).getSendStatus()).isEqualTo(SendStatus.SEND_OK);
            assertThat(producer.send(MatrixClients.message(topic, "T", "k-plain", "plain")).getSendStatus())
                    .isEqualTo(SendStatus.SEND_OK);
            Await.until("the delayed and the plain message", DELIVERY,
                    () -> received.first("delayed").isPresent() && received.first("plain").isPresent());
            MatrixClients.Delivery got = received.first("delayed").orElseThrow();
            // The broker's delivery time is its store time (after sentAt) plus the level's delay.
            assertThat(got.arrivedAt() - sentAt).as("ms from the send to the arrival; level 2 = 2 s")
                    .isGreaterThanOrEqualTo(LEVEL_2_MILLIS);
            assertThat(got.message().getTopic()).isEqualTo(topic);
            assertThat(got.message().getKeys()).isEqualTo("k-delayed");
            assertThat(got.message().getReconsumeTimes()).isZero();
        } finally {
            SHUTDOWNS.start(consumer::shutdown);
        }
        assertThat(received.bodies()).containsExactlyInAnyOrder("delayed", "plain");
    }

    @Test
    void reconsumeLaterComesBackWithReconsumeTimesAndEndsInTheDeadLetterQueue() throws Exception {
        String topic = "MatrixRetry";
        String group = "cg_matrix_retry";
        String dlq = "%DLQ%" + group;
        broker.createTopic(topic, 1);
        MatrixClients.Received received = new MatrixClients.Received();
        DefaultMQPushConsumer consumer = MatrixClients.pushConsumer(broker.namesrvAddr(), group, topic,
                MAX_RECONSUME_TIMES, (MessageListenerConcurrently) (messages, context) -> {
                    received.addAll(messages);
                    return ConsumeConcurrentlyStatus.RECONSUME_LATER;
                });
        DefaultLitePullConsumer reader = MatrixClients.litePullConsumer(broker.namesrvAddr(), "cg_matrix_dlq_reader");
        try {
            assertThat(producer.send(MatrixClients.message(topic, "T", "k-retry", "never-ok")).getSendStatus())
                    .isEqualTo(SendStatus.SEND_OK);
            // The last delivery's RECONSUME_LATER moves it to the DLQ.
            Await.until("the first delivery and " + MAX_RECONSUME_TIMES + " retries", DELIVERY,
                    () -> received.size() >= 1 + MAX_RECONSUME_TIMES);
            Collection<MessageQueue> queues = awaitQueues(reader, dlq);
            assertThat(queues).hasSize(1);
            MessageQueue dlqQueue = queues.iterator().next();
            // The last RECONSUME_LATER's send-back creates the DLQ (its route appears) before it stores the
            // message: the reader starts once the broker holds it.
            DefaultMQAdminExt admin = MatrixClients.admin(broker.namesrvAddr());
            try {
                Await.until("the dead letter stored in " + dlq, DELIVERY, () -> maxOffset(admin, dlqQueue) >= 1);
            } finally {
                SHUTDOWNS.start(admin::shutdown);
            }
            reader.assign(queues);
            MessageExt dead = FromStart.poll(reader, dlqQueue, 1, DELIVERY).get(0);
            assertThat(new String(dead.getBody(), StandardCharsets.UTF_8)).isEqualTo("never-ok");
            assertThat(dead.getTopic()).isEqualTo(dlq);
            assertThat(dead.getKeys()).isEqualTo("k-retry");
            assertThat(dead.getReconsumeTimes()).isEqualTo(MAX_RECONSUME_TIMES + 1);
            assertThat(dead.getProperty("RETRY_TOPIC")).isEqualTo(topic);
        } finally {
            SHUTDOWNS.start(consumer::shutdown);
            SHUTDOWNS.start(reader::shutdown);
        }
        // The first delivery, then one per retry (levels 3 and 4, 1 s each), each with its reconsume times,
        // each as the original message (the client puts the original topic back).
        List<MatrixClients.Delivery> got = received.deliveries();
        assertThat(got).extracting(d -> d.message().getReconsumeTimes()).containsExactly(0, 1, 2);
        assertThat(got).extracting(d -> d.message().getTopic()).containsOnly(topic);
        assertThat(got).extracting(d -> d.message().getKeys()).containsOnly("k-retry");
        assertThat(got).extracting(d -> d.message().getMsgId()).containsOnly(got.get(0).message().getMsgId());
        assertThat(got.get(1).arrivedAt() - got.get(0).arrivedAt()).as("ms to the first retry; level 3 = 1 s")
                .isGreaterThanOrEqualTo(1_000L);
    }

    @Test
    void aCommitIsDeliveredOnceARollbackNeverAndAnUnknowIsCheckedBackAndCommitted() throws Exception {
        String topic = "MatrixTx";
        broker.createTopic(topic, 1);
        ByBody listener = new ByBody();
        TransactionMQProducer transactional = MatrixClients.transactionProducer(broker.namesrvAddr(), "pg_matrix_tx",
                listener);
        DefaultLitePullConsumer reader = MatrixClients.litePullConsumer(broker.namesrvAddr(), "cg_matrix_tx_reader");
        List<MessageExt> stored = new ArrayList<>();
        try {
            Map<String, LocalTransactionState> expected = Map.of("commit", LocalTransactionState.COMMIT_MESSAGE,
                    "rollback", LocalTransactionState.ROLLBACK_MESSAGE, "unknown", LocalTransactionState.UNKNOW);
            for (String body : List.of("commit", "rollback", "unknown")) {
                TransactionSendResult result = transactional.sendMessageInTransaction(
                        MatrixClients.message(topic, "T", "k-" + body, body), null);
                assertThat(result.getSendStatus()).as(body).isEqualTo(SendStatus.SEND_OK);
                assertThat(result.getLocalTransactionState()).as(body).isEqualTo(expected.get(body));
            }
            Collection<MessageQueue> queues = reader.fetchMessageQueues(topic);
            assertThat(queues).hasSize(1);
            reader.assign(queues);
            stored.addAll(FromStart.pollUntil(reader, queues.iterator().next(),
                    "the committed and the checked-back transaction in " + topic, DELIVERY,
                    read -> bodies(read).containsAll(List.of("commit", "unknown"))));
            // Three more check-back passes, past transactionTimeOut again: nothing else may be stored.
            long quietUntil = System.currentTimeMillis() + 3 * CHECK_INTERVAL_MILLIS;
            while (System.currentTimeMillis() < quietUntil) {
                stored.addAll(reader.poll(200));
            }
        } finally {
            SHUTDOWNS.start(transactional::shutdown);
            SHUTDOWNS.start(reader::shutdown);
        }
        // By queue offset: the lite pull consumer can hand out a message fetched before the seek again after
        // it (one suite run got offset 0 twice); a second commit by the broker would be a third offset.
        Map<Long, String> byOffset = new TreeMap<>();
        for (MessageExt message : stored) {
            String body = new String(message.getBody(), StandardCharsets.UTF_8);
            String before = byOffset.putIfAbsent(message.getQueueOffset(), body);
            assertThat(before).as("body at offset " + message.getQueueOffset()).isIn(null, body);
        }
        assertThat(byOffset).containsExactly(Map.entry(0L, "commit"), Map.entry(1L, "unknown"));
        // Asked about the UNKNOW. On a loaded machine an END slower than transactionTimeOut may be overtaken by
        // a check of the others too; the listener answers those as their END did, and the broker takes one end.
        assertThat(listener.checked).containsKey("unknown");
    }

    /**
     * Ends each local transaction as its body says: {@code commit}, {@code rollback}, or UNKNOW for
     * {@code unknown}, which a check-back then commits; counts the check-backs per body.
     */
    private static final class ByBody implements TransactionListener {

        final Map<String, Integer> checked = new ConcurrentHashMap<>();

        @Override
        public LocalTransactionState executeLocalTransaction(Message message, Object arg) {
            return switch (new String(message.getBody(), StandardCharsets.UTF_8)) {
                case "commit" -> LocalTransactionState.COMMIT_MESSAGE;
                case "rollback" -> LocalTransactionState.ROLLBACK_MESSAGE;
                default -> LocalTransactionState.UNKNOW;
            };
        }

        @Override
        public LocalTransactionState checkLocalTransaction(MessageExt message) {
            String body = new String(message.getBody(), StandardCharsets.UTF_8);
            checked.merge(body, 1, Integer::sum);
            return "rollback".equals(body) ? LocalTransactionState.ROLLBACK_MESSAGE
                    : LocalTransactionState.COMMIT_MESSAGE;
        }
    }

    /** The topic's queues once the name server routes it (the broker creates a DLQ on first use). */
    private static Collection<MessageQueue> awaitQueues(DefaultLitePullConsumer consumer, String topic) {
        return Await.value("route of " + topic, DELIVERY, () -> {
            try {
                Collection<MessageQueue> queues = consumer.fetchMessageQueues(topic);
                return queues == null || queues.isEmpty() ? null : queues;
            } catch (MQClientException e) {
                throw new IllegalStateException(e);
            }
        });
    }

    private static long maxOffset(DefaultMQAdminExt admin, MessageQueue queue) {
        try {
            return admin.maxOffset(queue);
        } catch (MQClientException e) {
            return -1;
        }
    }


    private static List<String> bodies(List<MessageExt> messages) {
        return messages.stream().map(m -> new String(m.getBody(), StandardCharsets.UTF_8)).toList();
    }
}
