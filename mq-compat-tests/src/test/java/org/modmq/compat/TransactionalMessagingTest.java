package org.modmq.compat;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.apache.rocketmq.client.consumer.PullResult;
import org.apache.rocketmq.client.consumer.PullStatus;
import org.apache.rocketmq.client.impl.CommunicationMode;
import org.apache.rocketmq.client.impl.MQClientAPIImpl;
import org.apache.rocketmq.client.impl.consumer.PullResultExt;
import org.apache.rocketmq.client.producer.LocalTransactionState;
import org.apache.rocketmq.client.producer.SendStatus;
import org.apache.rocketmq.client.producer.TransactionListener;
import org.apache.rocketmq.client.producer.TransactionMQProducer;
import org.apache.rocketmq.client.producer.TransactionSendResult;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.common.message.MessageConst;
import org.apache.rocketmq.common.message.MessageDecoder;
import org.apache.rocketmq.common.message.MessageExt;
import org.apache.rocketmq.common.sysflag.MessageSysFlag;
import org.apache.rocketmq.common.sysflag.PullSysFlag;
import org.apache.rocketmq.remoting.protocol.RemotingCommand;
import org.apache.rocketmq.remoting.protocol.RequestCode;
import org.apache.rocketmq.remoting.protocol.ResponseCode;
import org.apache.rocketmq.remoting.protocol.header.PullMessageRequestHeader;
import org.apache.rocketmq.remoting.protocol.header.SendMessageRequestHeader;
import org.apache.rocketmq.remoting.protocol.header.SendMessageResponseHeader;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;
import org.modmq.testkit.process.Await;

/**
 * Transactional messages with the stock 5.3.3 TransactionMQProducer against the distribution (check-back
 * every 500 ms, transactionTimeOut 3 s): commit delivered once, rollback never, UNKNOW checked back and
 * committed, a broker SIGKILLed between prepare and commit losing and doubling nothing; and raw prepared
 * and rolled-back sends leaving no holes in the queue.
 */
@Tag("integration")
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class TransactionalMessagingTest {

    private static final Duration DELIVERY_TIMEOUT = Duration.ofSeconds(30);

    @TempDir(cleanup = CleanupMode.ON_SUCCESS)
    static Path workDir;

    private static ModmqCluster cluster;

    @BeforeAll
    static void startCluster() throws Exception {
        cluster = ModmqCluster.start(workDir, 1, Map.of("transactionCheckInterval", "500",
                "transactionTimeOut", "3000"));
    }

    @AfterAll
    static void stopCluster() {
        if (cluster != null) {
            cluster.close();
        }
    }

    /**
     * Decides by body prefix: {@code commit-} and {@code rollback-} end as named, {@code unknown-} answers
     * UNKNOW and commits when checked; with a gate, {@code held-} bodies wait for it before committing.
     */
    private static final class Listener implements TransactionListener {

        final Map<String, Integer> checks = new ConcurrentHashMap<>();
        final CountDownLatch held;
        final CountDownLatch gate;

        Listener(int heldCount) {
            this.held = new CountDownLatch(heldCount);
            this.gate = new CountDownLatch(1);
        }

        @Override
        public LocalTransactionState executeLocalTransaction(Message msg, Object arg) {
            String body = new String(msg.getBody(), UTF_8);
            if (body.startsWith("held-")) {
                held.countDown();
                try {
                    gate.await(60, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                return body.contains("rollback") ? LocalTransactionState.ROLLBACK_MESSAGE
                        : LocalTransactionState.COMMIT_MESSAGE;
            }
            return outcome(body, false);
        }

        @Override
        public LocalTransactionState checkLocalTransaction(MessageExt msg) {
            String body = new String(msg.getBody(), UTF_8);
            checks.merge(body, 1, Integer::sum);
            return outcome(body, true);
        }

        private static LocalTransactionState outcome(String body, boolean checked) {
            if (body.contains("rollback")) {
                return LocalTransactionState.ROLLBACK_MESSAGE;
            }
            if (body.startsWith("unknown-") && !checked) {
                return LocalTransactionState.UNKNOW;
            }
            return LocalTransactionState.COMMIT_MESSAGE;
        }
    }

    private static TransactionMQProducer producer(String group, TransactionListener listener) throws Exception {
        TransactionMQProducer producer = new TransactionMQProducer(group);
        producer.setNamesrvAddr(cluster.namesrvAddr());
        producer.setInstanceName(StockClients.instanceName("tx"));
        producer.setPollNameServerInterval(1_000);
        producer.setHeartbeatBrokerInterval(1_000);
        producer.setSendMsgTimeout(5_000);
        producer.setTransactionListener(listener);
        producer.start();
        return producer;
    }

    private static Message message(String topic, String body) {
        return new Message(topic, "T", body, body.getBytes(UTF_8));
    }

    private static MQClientAPIImpl api(TransactionMQProducer producer) {
        return producer.getDefaultMQProducerImpl().getMqClientFactory().getMQClientAPIImpl();
    }

    /** Every key (= body) stored in the topic's queues, with how many times; empty while the broker does not answer. */
    private static Map<String, Integer> stored(TransactionMQProducer producer, String topic, int queues) {
        try {
            return QueueReadBack.read(api(producer), cluster.brokerAddr(), topic, queues, Duration.ofSeconds(5)).keys();
        } catch (Exception e) {
            return Map.of();
        }
    }

    @Test
    void commitIsDeliveredOnceRollbackNeverAndUnknownIsCheckedBackAndCommitted() throws Exception {
        String topic = "TxOutcomes";
        cluster.createTopic(topic, 2);
        Listener listener = new Listener(0);
        TransactionMQProducer producer = producer("pg_tx_outcomes", listener);
        try {
            for (String kind : List.of("commit", "rollback", "unknown")) {
                for (int i = 0; i < 3; i++) {
                    TransactionSendResult result = producer.sendMessageInTransaction(message(topic, kind + "-" + i), null);
                    assertThat(result.getSendStatus()).isEqualTo(SendStatus.SEND_OK);
                    assertThat(result.getMessageQueue().getTopic()).isEqualTo(topic);
                }
            }
            Set<String> expected = Set.of("commit-0", "commit-1", "commit-2", "unknown-0", "unknown-1", "unknown-2");
            Await.until("the UNKNOW transactions committed after a check-back", DELIVERY_TIMEOUT,
                    () -> stored(producer, topic, 2).keySet().containsAll(expected));
            // A few more check-back rounds: nothing else may arrive and nothing may be asked again.
            Thread.sleep(2_000);
            Map<String, Integer> delivered = stored(producer, topic, 2);
            assertThat(delivered.keySet()).containsExactlyInAnyOrderElementsOf(expected);
            assertThat(delivered.values()).allMatch(count -> count == 1);
            // Every UNKNOW was asked about. On a loaded machine a check answered after the next round started
            // is asked again, or an END slower than transactionTimeOut is overtaken by a check; the broker then
            // refuses the second end, as the delivery counts above show.
            assertThat(listener.checks.keySet()).contains("unknown-0", "unknown-1", "unknown-2");
        } finally {
            producer.shutdown();
        }
    }

    @Test
    void aBrokerKilledBetweenPrepareAndCommitLosesAndDoublesNothing() throws Exception {
        String topic = "TxKill";
        cluster.createTopic(topic, 1);
        Listener listener = new Listener(2);
        TransactionMQProducer producer = producer("pg_tx_kill", listener);
        ExecutorService senders = Executors.newFixedThreadPool(2);
        try {
            for (int i = 0; i < 2; i++) {
                assertThat(producer.sendMessageInTransaction(message(topic, "unknown-k" + i), null)
                        .getLocalTransactionState()).isEqualTo(LocalTransactionState.UNKNOW);
            }
            List<Future<TransactionSendResult>> held = new ArrayList<>();
            for (String body : List.of("held-commit", "held-rollback")) {
                held.add(senders.submit(() -> producer.sendMessageInTransaction(message(topic, body), null)));
            }
            assertThat(listener.held.await(30, TimeUnit.SECONDS)).as("both prepared").isTrue();

            cluster.killAndRestartBroker();
            listener.gate.countDown();
            for (Future<TransactionSendResult> result : held) {
                assertThat(result.get(30, TimeUnit.SECONDS).getSendStatus()).isEqualTo(SendStatus.SEND_OK);
            }
            Set<String> expected = Set.of("unknown-k0", "unknown-k1", "held-commit");
            Await.until("every committed transaction delivered after the restart", DELIVERY_TIMEOUT,
                    () -> stored(producer, topic, 1).keySet().containsAll(expected));
            Thread.sleep(3_000);
            Map<String, Integer> delivered = stored(producer, topic, 1);
            assertThat(delivered).containsOnlyKeys(expected);
            assertThat(delivered.values()).allMatch(count -> count == 1);
        } finally {
            senders.shutdownNow();
            producer.shutdown();
        }
    }

    @Test
    void rawPreparedAndRolledBackSendsLeaveNoHoles() throws Exception {
        String topic = "TxDense";
        cluster.createTopic(topic, 1);
        TransactionMQProducer producer = producer("pg_tx_dense", new Listener(0));
        try {
            MQClientAPIImpl api = api(producer);
            List<Long> answered = new ArrayList<>();
            for (int i = 0; i < 9; i++) {
                int type = i % 3 == 1 ? MessageSysFlag.TRANSACTION_PREPARED_TYPE
                        : i % 3 == 2 ? MessageSysFlag.TRANSACTION_ROLLBACK_TYPE : MessageSysFlag.TRANSACTION_NOT_TYPE;
                RemotingCommand response = rawSend(api, topic, "dense-" + i, type);
                assertThat(response.getCode()).isEqualTo(ResponseCode.SUCCESS);
                SendMessageResponseHeader header = (SendMessageResponseHeader) response
                        .decodeCommandCustomHeader(SendMessageResponseHeader.class);
                if (type == MessageSysFlag.TRANSACTION_NOT_TYPE) {
                    answered.add(header.getQueueOffset());
                } else {
                    assertThat(header.getQueueOffset()).isZero();
                }
            }
            assertThat(answered).containsExactly(0L, 1L, 2L);
            assertThat(api.getMaxOffset(cluster.brokerAddr(), new org.apache.rocketmq.common.message.MessageQueue(
                    topic, cluster.brokerName(), 0), 3_000)).isEqualTo(3);
            List<String> bodies = new ArrayList<>();
            for (long offset : answered) {
                PullResult result = api.pullMessage(cluster.brokerAddr(), pullHeader(topic, offset), 3_000,
                        CommunicationMode.SYNC, null);
                assertThat(result.getPullStatus()).as("pull at " + offset).isEqualTo(PullStatus.FOUND);
                MessageExt first = MessageDecoder.decodesBatch(
                        ByteBuffer.wrap(((PullResultExt) result).getMessageBinary()), true, false, true).get(0);
                assertThat(first.getQueueOffset()).isEqualTo(offset);
                bodies.add(new String(first.getBody(), UTF_8));
            }
            assertThat(bodies).containsExactly("dense-0", "dense-3", "dense-6");
        } finally {
            producer.shutdown();
        }
    }

    /** SEND_MESSAGE with {@code sysFlag} as given and no TRAN_MSG property, through the stock remoting client. */
    private static RemotingCommand rawSend(MQClientAPIImpl api, String topic, String body, int sysFlag)
            throws Exception {
        SendMessageRequestHeader header = new SendMessageRequestHeader();
        header.setProducerGroup("pg_tx_dense");
        header.setTopic(topic);
        header.setDefaultTopic("TBW102");
        header.setDefaultTopicQueueNums(4);
        header.setQueueId(0);
        header.setSysFlag(sysFlag);
        header.setBornTimestamp(System.currentTimeMillis());
        header.setFlag(0);
        header.setProperties(MessageConst.PROPERTY_KEYS + (char) 1 + body + (char) 2);
        header.setReconsumeTimes(0);
        header.setUnitMode(false);
        header.setBatch(false);
        RemotingCommand request = RemotingCommand.createRequestCommand(RequestCode.SEND_MESSAGE, header);
        request.setBody(body.getBytes(UTF_8));
        return api.getRemotingClient().invokeSync(cluster.brokerAddr(), request, 3_000);
    }

    private static PullMessageRequestHeader pullHeader(String topic, long offset) {
        PullMessageRequestHeader header = new PullMessageRequestHeader();
        header.setConsumerGroup("cg_tx_dense");
        header.setTopic(topic);
        header.setQueueId(0);
        header.setQueueOffset(offset);
        header.setMaxMsgNums(1);
        header.setSysFlag(PullSysFlag.buildSysFlag(false, false, true, false));
        header.setCommitOffset(0L);
        header.setSuspendTimeoutMillis(0L);
        header.setSubscription("*");
        header.setSubVersion(0L);
        header.setExpressionType("TAG");
        return header;
    }
}
