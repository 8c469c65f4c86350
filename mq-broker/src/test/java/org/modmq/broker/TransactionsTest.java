package org.modmq.broker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.modmq.broker.BrokerClient.props;
import static org.modmq.broker.BrokerClient.pull;
import static org.modmq.broker.BrokerClient.sendV2;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.modmq.broker.data.MessageStoreBinding;
import org.modmq.broker.data.PullMessageProcessor;
import org.modmq.broker.runtime.PluginSelection;
import org.modmq.broker.stats.MessageEvents;
import org.modmq.broker.testing.Await;
import org.modmq.broker.testing.TestConfigs;
import org.modmq.remoting.netty.RemotingClient;
import org.modmq.remoting.netty.RemotingClientConfig;
import org.modmq.remoting.protocol.RemotingCommand;
import org.modmq.remoting.protocol.RequestCode;
import org.modmq.remoting.protocol.ResponseCode;
import org.modmq.testkit.ManualClock;

/**
 * Transactional messages against an in-process broker on a manual clock, the test acting as the
 * producer on the wire: prepare, END_TRANSACTION, and the check-back stepped with {@code checkNow()}.
 */
@Tag("integration")
@Timeout(60)
class TransactionsTest {

    private static final int SUB = PullMessageProcessor.FLAG_SUBSCRIPTION;
    private static final int PREPARED = 4;
    private static final int COMMIT = 8;
    private static final int ROLLBACK = 12;
    private static final String GROUP = "pg_tx";

    @TempDir
    Path dir;

    private final ManualClock clock = new ManualClock(Instant.parse("2024-01-01T10:00:00Z"));
    private final LinkedBlockingQueue<RemotingCommand> checks = new LinkedBlockingQueue<>();
    private final ExecutorService checkExecutor = Executors.newSingleThreadExecutor();
    private BrokerServer broker;
    private RemotingClient remoting;
    private BrokerClient client;
    private volatile MessageStoreBinding binding;

    private void start(String... keyValues) {
        broker = open(dir, keyValues);
        connect(broker);
    }

    /** A broker on the manual clock, its binding left in {@link #binding}. */
    private BrokerServer open(Path store, String... keyValues) {
        String[] base = {"mappedFileSizeCommitLog", "1048576", "mappedFileSizeConsumeQueue", "20000",
            "transactionTimeOut", "6000", "transactionCheckInterval", "3600000"};
        String[] all = new String[base.length + keyValues.length];
        System.arraycopy(base, 0, all, 0, base.length);
        System.arraycopy(keyValues, 0, all, base.length, keyValues.length);
        return new BrokerServer(TestConfigs.broker(store, all), clock, runtime -> {
            binding = MessageStoreBinding.open(runtime, PluginSelection.discover());
            return binding;
        }).start();
    }

    /** Connects the test producer to {@code target}: check-backs are queued in {@link #checks}. */
    private void connect(BrokerServer target) {
        if (remoting == null) {
            remoting = new RemotingClient(RemotingClientConfig.defaults());
            remoting.registerProcessor(RequestCode.CHECK_TRANSACTION_STATE, (channel, request) -> {
                checks.add(request);
                return null;
            }, checkExecutor);
        }
        client = new BrokerClient(remoting, target.brokerAddr());
        RemotingCommand beat = client.invoke(RemotingCommand.request(RequestCode.HEART_BEAT).withBody(
                ("{\"clientID\":\"127.0.0.1@tx\",\"producerDataSet\":[{\"groupName\":\"" + GROUP
                        + "\"}],\"consumerDataSet\":[]}").getBytes(StandardCharsets.UTF_8)));
        assertThat(beat.code()).isEqualTo(ResponseCode.SUCCESS);
    }

    private void restart(String... keyValues) {
        remoting.close();
        remoting = null;
        broker.close();
        checks.clear();
        start(keyValues);
    }

    @AfterEach
    void stop() {
        if (remoting != null) {
            remoting.close();
        }
        if (broker != null) {
            broker.close();
        }
        if (other != null) {
            other.close();
        }
        checkExecutor.shutdownNow();
    }

    private BrokerServer other;

    /** A prepared send as TransactionMQProducer makes it. */
    private Half prepare(String topic, String body, String... extra) {
        List<String> pairs = new ArrayList<>(List.of("TRAN_MSG", "true", "PGROUP", GROUP, "UNIQ_KEY", "ID-" + body,
                "WAIT", "true", "TAGS", "T"));
        pairs.addAll(List.of(extra));
        RemotingCommand sent = client.invoke(sendV2(topic, 1, props(pairs.toArray(String[]::new)),
                body.getBytes(StandardCharsets.UTF_8)).putExtField("f", PREPARED).putExtField("g", clock.millis()));
        assertThat(sent.code()).as(sent.remark()).isEqualTo(ResponseCode.SUCCESS);
        assertThat(sent.extField("queueId")).isEqualTo("1");
        assertThat(sent.extField("transactionId")).isEqualTo("ID-" + body);
        return new Half(Long.parseLong(sent.extField("msgId").substring(16), 16),
                Long.parseLong(sent.extField("queueOffset")), "ID-" + body);
    }

    private record Half(long commitLogOffset, long queueOffset, String uniqKey) {
    }

    private RemotingCommand end(Half half, int outcome, boolean fromCheck) {
        return client.invoke(endRequest(half.commitLogOffset(), half.queueOffset(), outcome, fromCheck, GROUP,
                half.uniqKey()));
    }

    private static RemotingCommand endRequest(long commitLogOffset, long queueOffset, int outcome, boolean fromCheck,
                                              String group, String msgId) {
        return RemotingCommand.request(RequestCode.END_TRANSACTION).putExtField("producerGroup", group)
                .putExtField("tranStateTableOffset", queueOffset).putExtField("commitLogOffset", commitLogOffset)
                .putExtField("commitOrRollback", outcome).putExtField("fromTransactionCheck", fromCheck)
                .putExtField("msgId", msgId).putExtField("transactionId", msgId).putExtField("topic", "TopicTx")
                .putExtField("bname", "broker-a");
    }

    private List<BrokerClient.Record> pullAll(String topic, int queueId) {
        RemotingCommand pulled = client.invoke(pull("cg", topic, queueId, 0, SUB, 0, 0, "*"));
        return pulled.code() == ResponseCode.SUCCESS ? BrokerClient.decode(pulled.body()) : List.of();
    }

    private int checkNow() {
        return binding.transactions().checkNow();
    }

    private RemotingCommand nextCheck() throws InterruptedException {
        RemotingCommand check = checks.poll(10, TimeUnit.SECONDS);
        assertThat(check).as("a CHECK_TRANSACTION_STATE").isNotNull();
        return check;
    }

    /** Answers a check-back as the stock producer does (END_TRANSACTION from the check's header). */
    private RemotingCommand answer(RemotingCommand check, int outcome) {
        return client.invoke(endRequest(Long.parseLong(check.extField("commitLogOffset")),
                Long.parseLong(check.extField("tranStateTableOffset")), outcome, true, GROUP, check.extField("msgId")));
    }

    @Test
    void commitStoresTheMessageOnceInItsRealQueueAndASecondCommitIsRefused() {
        start();
        Half half = prepare("TopicTx", "c1");
        assertThat(half.queueOffset()).isZero();
        assertThat(pullAll("TopicTx", 1)).isEmpty();
        assertThat(events().halfMessages("TopicTx")).isEqualTo(1);
        List<BrokerClient.Record> halves = pullAll("RMQ_SYS_TRANS_HALF_TOPIC", 0);
        assertThat(halves).singleElement().satisfies(h -> {
            assertThat(h.physicalOffset()).isEqualTo(half.commitLogOffset());
            assertThat(h.properties()).containsEntry("REAL_TOPIC", "TopicTx").containsEntry("REAL_QID", "1")
                    .containsEntry("__transactionId__", "ID-c1").containsEntry("PGROUP", GROUP);
            assertThat(ByteBuffer.wrap(h.raw()).getInt(36) & 0xC).isZero();
        });

        assertThat(end(half, COMMIT, false).code()).isEqualTo(ResponseCode.SUCCESS);
        assertThat(events().commits("TopicTx")).isEqualTo(1);
        assertThat(events().halfMessages("TopicTx")).isZero();
        List<BrokerClient.Record> delivered = pullAll("TopicTx", 1);
        assertThat(delivered).singleElement().satisfies(m -> {
            assertThat(m.body()).isEqualTo("c1");
            assertThat(m.queueOffset()).isZero();
            assertThat(m.properties()).containsEntry("UNIQ_KEY", "ID-c1").containsEntry("PGROUP", GROUP)
                    .doesNotContainKeys("REAL_TOPIC", "REAL_QID", "TRAN_MSG");
            ByteBuffer raw = ByteBuffer.wrap(m.raw());
            assertThat(raw.getInt(36) & 0xC).isEqualTo(COMMIT);
            assertThat(raw.getLong(76)).as("prepared transaction offset").isEqualTo(half.commitLogOffset());
        });
        assertThat(pullAll("RMQ_SYS_TRANS_OP_HALF_TOPIC", 0)).singleElement().satisfies(op -> {
            assertThat(op.body()).isEqualTo("0,");
            assertThat(op.properties()).containsEntry("TAGS", "d");
        });

        RemotingCommand again = end(half, COMMIT, false);
        assertThat(again.code()).isEqualTo(ResponseCode.SYSTEM_ERROR);
        assertThat(again.remark()).contains("no longer open");
        assertThat(end(half, ROLLBACK, true).code()).isEqualTo(ResponseCode.SYSTEM_ERROR);
        assertThat(pullAll("TopicTx", 1)).hasSize(1);
        assertThat(pullAll("RMQ_SYS_TRANS_OP_HALF_TOPIC", 0)).hasSize(1);
        assertThat(events().commits("TopicTx")).as("a refused second end counts nothing").isEqualTo(1);
        assertThat(events().rollbacks("TopicTx")).isZero();
        clock.advance(Duration.ofSeconds(10));
        assertThat(checkNow()).isZero();
    }

    @Test
    void aCommittedMessageWithADelayLevelWaitsInItsScheduleQueue() {
        start();
        Half half = prepare("TopicTx", "d1", "DELAY", "2");
        assertThat(end(half, COMMIT, false).code()).isEqualTo(ResponseCode.SUCCESS);
        assertThat(pullAll("TopicTx", 1)).as("not delivered before its level's delay").isEmpty();
        assertThat(pullAll("SCHEDULE_TOPIC_XXXX", 1)).singleElement().satisfies(m -> {
            assertThat(m.body()).isEqualTo("d1");
            assertThat(m.properties()).containsEntry("REAL_TOPIC", "TopicTx").containsEntry("REAL_QID", "1")
                    .containsEntry("DELAY", "2");
            assertThat(ByteBuffer.wrap(m.raw()).getInt(36) & 0xC).isEqualTo(COMMIT);
        });
    }

    @Test
    void aCommittedTimerMessageWaitsInTheTimerTopicAndAPreparedOneDoesNot() {
        start();
        Half half = prepare("TopicTx", "t1", "TIMER_DELAY_SEC", "60");
        assertThat(pullAll("rmq_sys_wheel_timer", 0)).as("the half message is not a timer yet").isEmpty();
        assertThat(end(half, COMMIT, false).code()).isEqualTo(ResponseCode.SUCCESS);
        assertThat(pullAll("TopicTx", 1)).as("not delivered before its time").isEmpty();
        assertThat(pullAll("rmq_sys_wheel_timer", 0)).filteredOn(m -> "t1".equals(m.body())).singleElement()
                .satisfies(m -> {
                    assertThat(m.properties()).containsEntry("REAL_TOPIC", "TopicTx").containsEntry("REAL_QID", "1")
                            .containsKey("TIMER_OUT_MS");
                    assertThat(ByteBuffer.wrap(m.raw()).getInt(36) & 0xC).isEqualTo(COMMIT);
                });
    }

    @Test
    void rollbackStoresOnlyTheOpRecordAndIsNeverCheckedBack() throws Exception {
        start();
        Half half = prepare("TopicTx", "r1");
        assertThat(end(half, ROLLBACK, false).code()).isEqualTo(ResponseCode.SUCCESS);
        assertThat(events().rollbacks("TopicTx")).isEqualTo(1);
        assertThat(events().commits("TopicTx")).isZero();
        assertThat(events().halfMessages("TopicTx")).isZero();
        assertThat(pullAll("RMQ_SYS_TRANS_OP_HALF_TOPIC", 0)).singleElement()
                .satisfies(op -> assertThat(op.body()).isEqualTo("0,"));
        assertThat(end(half, COMMIT, false).code()).isEqualTo(ResponseCode.SYSTEM_ERROR);
        clock.advance(Duration.ofSeconds(10));
        assertThat(checkNow()).isZero();
        assertThat(pullAll("TopicTx", 1)).isEmpty();
        assertThat(checks.poll(200, TimeUnit.MILLISECONDS)).isNull();
    }

    @Test
    void anUnknownTransactionIsCheckedBackAfterTheTimeoutAndTheAnswerCommitsIt() throws Exception {
        start();
        Half half = prepare("TopicTx", "u1");
        RemotingCommand unknown = endRequest(half.commitLogOffset(), half.queueOffset(), 0, false, GROUP, "ID-u1");
        remoting.invokeOneway(broker.brokerAddr(), unknown).get(5, TimeUnit.SECONDS);
        clock.advance(Duration.ofSeconds(5));
        assertThat(checkNow()).as("younger than transactionTimeOut").isZero();
        clock.advance(Duration.ofSeconds(2));
        assertThat(checkNow()).isEqualTo(1);
        RemotingCommand check = nextCheck();
        assertThat(check.extField("topic")).isEqualTo("RMQ_SYS_TRANS_HALF_TOPIC");
        assertThat(check.extField("msgId")).isEqualTo("ID-u1");
        assertThat(check.extField("transactionId")).isEqualTo("ID-u1");
        assertThat(check.extField("bname")).isEqualTo("broker-a");
        assertThat(Long.parseLong(check.extField("tranStateTableOffset"))).isEqualTo(1);
        long copyOffset = Long.parseLong(check.extField("commitLogOffset"));
        assertThat(copyOffset).isGreaterThan(half.commitLogOffset());
        assertThat(check.extField("offsetMsgId")).endsWith(String.format("%016X", copyOffset));
        BrokerClient.Record body = BrokerClient.decode(check.body()).get(0);
        assertThat(body.topic()).isEqualTo("TopicTx");
        assertThat(body.queueId()).isEqualTo(1);
        assertThat(body.body()).isEqualTo("u1");
        assertThat(body.properties()).containsEntry("PGROUP", GROUP).containsEntry("TRANSACTION_CHECK_TIMES", "1")
                .containsEntry("TRAN_PREPARED_QUEUE_OFFSET", "0").containsEntry("UNIQ_KEY", "ID-u1");

        assertThat(checkNow()).as("one check per pass").isZero();
        assertThat(answer(check, COMMIT).code()).isEqualTo(ResponseCode.SUCCESS);
        assertThat(end(half, COMMIT, false).code()).as("the original, once its copy ended it")
                .isEqualTo(ResponseCode.SYSTEM_ERROR);
        assertThat(pullAll("TopicTx", 1)).extracting(BrokerClient.Record::body).containsExactly("u1");
        clock.advance(Duration.ofSeconds(10));
        assertThat(checkNow()).isZero();
        assertThat(pullAll("RMQ_SYS_TRANS_OP_HALF_TOPIC", 0)).extracting(BrokerClient.Record::body)
                .containsExactly("1,");
    }

    @Test
    void aTransactionCheckedTransactionCheckMaxTimesIsDiscarded() throws Exception {
        start("transactionCheckMax", "3");
        Half half = prepare("TopicTx", "m1");
        clock.advance(Duration.ofSeconds(7));
        RemotingCommand last = null;
        for (int i = 1; i <= 3; i++) {
            assertThat(checkNow()).isEqualTo(1);
            last = nextCheck();
            assertThat(BrokerClient.decode(last.body()).get(0).properties())
                    .containsEntry("TRANSACTION_CHECK_TIMES", Integer.toString(i));
            clock.advance(Duration.ofSeconds(1));
        }
        assertThat(checkNow()).isZero();
        assertThat(pullAll("TRANS_CHECK_MAX_TIME_TOPIC", 0)).singleElement().satisfies(m -> {
            assertThat(m.body()).isEqualTo("m1");
            assertThat(m.properties()).containsEntry("REAL_TOPIC", "TopicTx").containsEntry("TRANSACTION_CHECK_TIMES", "3");
        });
        assertThat(events().halfMessages("TopicTx")).as("a discarded half message is no longer open").isZero();
        assertThat(answer(last, COMMIT).code()).isEqualTo(ResponseCode.SYSTEM_ERROR);
        assertThat(end(half, COMMIT, false).code()).isEqualTo(ResponseCode.SYSTEM_ERROR);
        clock.advance(Duration.ofSeconds(10));
        assertThat(checkNow()).isZero();
        assertThat(pullAll("TopicTx", 1)).isEmpty();
    }

    @Test
    void theCheckBackResumesAfterARestartWithoutAskingAboutEndedTransactions() throws Exception {
        start();
        Half open = prepare("TopicTx", "o1");
        Half committed = prepare("TopicTx", "o2");
        assertThat(end(committed, COMMIT, false).code()).isEqualTo(ResponseCode.SUCCESS);
        clock.advance(Duration.ofSeconds(7));
        assertThat(checkNow()).isEqualTo(1);
        RemotingCommand first = nextCheck();

        restart();
        clock.advance(Duration.ofSeconds(1));
        assertThat(checkNow()).isEqualTo(1);
        RemotingCommand second = nextCheck();
        assertThat(second.extField("msgId")).isEqualTo("ID-o1");
        assertThat(BrokerClient.decode(second.body()).get(0).properties()).containsEntry("TRANSACTION_CHECK_TIMES", "2");
        // The producer's own (late) END names the original: it still ends the open transaction, once.
        assertThat(end(open, COMMIT, false).code()).isEqualTo(ResponseCode.SUCCESS);
        assertThat(answer(first, COMMIT).code()).isEqualTo(ResponseCode.SYSTEM_ERROR);
        assertThat(answer(second, COMMIT).code()).isEqualTo(ResponseCode.SYSTEM_ERROR);
        assertThat(pullAll("RMQ_SYS_TRANS_OP_HALF_TOPIC", 0)).extracting(BrokerClient.Record::body)
                .as("the op of the original also names the newest copy").containsExactly("1,", "0,3,");

        restart();
        clock.advance(Duration.ofSeconds(10));
        assertThat(checkNow()).isZero();
        assertThat(answer(second, COMMIT).code()).isEqualTo(ResponseCode.SYSTEM_ERROR);
        assertThat(end(open, ROLLBACK, false).code()).isEqualTo(ResponseCode.SYSTEM_ERROR);
        assertThat(pullAll("TopicTx", 1)).extracting(BrokerClient.Record::body).containsExactly("o2", "o1");
    }

    @Test
    void theCheckBackRunsOnlyWhileTheStoreIsMaster() throws Exception {
        start();
        assertThat(binding.transactions().checking()).isTrue();
        Half half = prepare("TopicTx", "s1");
        clock.advance(Duration.ofSeconds(7));
        binding.store().becomeReplica(0, null, 1);
        assertThat(binding.transactions().checking()).isFalse();
        assertThat(checkNow()).isZero();
        RemotingCommand refused = end(half, COMMIT, false);
        assertThat(refused.code()).isEqualTo(ResponseCode.SLAVE_NOT_AVAILABLE);

        binding.store().becomeMaster(0, 0);
        assertThat(binding.transactions().checking()).isTrue();
        assertThat(checkNow()).isEqualTo(1);
        assertThat(answer(nextCheck(), ROLLBACK).code()).isEqualTo(ResponseCode.SUCCESS);
        assertThat(pullAll("TopicTx", 1)).isEmpty();
    }

    @Test
    void aSlaveNeverChecks() {
        start("brokerRole", "SLAVE", "brokerId", "1");
        assertThat(binding.transactions().checking()).isFalse();
        assertThat(checkNow()).isZero();
    }

    @Test
    void badEndTransactionsAreRefusedAndStoreNothing() {
        start();
        Half half = prepare("TopicTx", "b1");
        RemotingCommand missing = client.invoke(RemotingCommand.request(RequestCode.END_TRANSACTION)
                .putExtField("producerGroup", GROUP).putExtField("commitOrRollback", COMMIT));
        assertThat(missing.code()).isEqualTo(ResponseCode.SYSTEM_ERROR);
        assertThat(missing.remark()).contains("tranStateTableOffset");
        RemotingCommand badOutcome = client.invoke(endRequest(half.commitLogOffset(), 0, 5, false, GROUP, "x"));
        assertThat(badOutcome.code()).isEqualTo(ResponseCode.SYSTEM_ERROR);
        assertThat(badOutcome.remark()).contains("commitOrRollback");
        RemotingCommand group = client.invoke(endRequest(half.commitLogOffset(), 0, COMMIT, false, "other", "x"));
        assertThat(group.code()).isEqualTo(ResponseCode.SYSTEM_ERROR);
        assertThat(group.remark()).contains("producer group wrong");
        RemotingCommand queue = client.invoke(endRequest(half.commitLogOffset(), 7, COMMIT, false, GROUP, "x"));
        assertThat(queue.remark()).contains("transaction state table offset wrong");
        RemotingCommand nowhere = client.invoke(endRequest(half.commitLogOffset() + 1, 0, COMMIT, false, GROUP, "x"));
        assertThat(nowhere.code()).isEqualTo(ResponseCode.SYSTEM_ERROR);
        assertThat(nowhere.remark()).contains("Find prepared transaction message failed");
        RemotingCommand plain = client.invoke(sendV2("TopicTx", 0, props("UNIQ_KEY", "p"), new byte[] {1}));
        RemotingCommand notHalf = client.invoke(endRequest(Long.parseLong(plain.extField("msgId").substring(16), 16),
                0, COMMIT, false, GROUP, "x"));
        assertThat(notHalf.remark()).contains("Find prepared transaction message failed");
        assertThat(pullAll("RMQ_SYS_TRANS_OP_HALF_TOPIC", 0)).isEmpty();
        assertThat(pullAll("TopicTx", 1)).isEmpty();

        RemotingCommand batch = client.invoke(RemotingCommand.request(RequestCode.SEND_BATCH_MESSAGE)
                .putExtField("a", GROUP).putExtField("b", "TopicTx").putExtField("c", "TBW102").putExtField("d", 4)
                .putExtField("e", 0).putExtField("f", PREPARED).putExtField("g", 1L).putExtField("h", 0)
                .putExtField("i", props("TRAN_MSG", "true", "PGROUP", GROUP)).putExtField("j", 0).putExtField("m", true)
                .withBody(BrokerClient.batchBody(List.of("x", "y"), List.of("", ""))));
        assertThat(batch.code()).isEqualTo(ResponseCode.MESSAGE_ILLEGAL);
        assertThat(pullAll("RMQ_SYS_TRANS_HALF_TOPIC", 0)).hasSize(1);
        assertThat(end(half, COMMIT, false).code()).isEqualTo(ResponseCode.SUCCESS);
    }

    @Test
    void rejectTransactionMessageRefusesPreparedSends() {
        start("rejectTransactionMessage", "true");
        RemotingCommand sent = client.invoke(sendV2("TopicTx", 1, props("TRAN_MSG", "true", "PGROUP", GROUP),
                new byte[] {1}).putExtField("f", PREPARED));
        assertThat(sent.code()).isEqualTo(ResponseCode.NO_PERMISSION);
        assertThat(pullAll("RMQ_SYS_TRANS_HALF_TOPIC", 0)).isEmpty();
    }

    @Test
    void rawPreparedAndRolledBackSendsTakeNoQueueOffset() {
        start();
        List<Long> answered = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            int sysFlag = i % 3 == 1 ? PREPARED : i % 3 == 2 ? ROLLBACK : 0;
            RemotingCommand sent = client.invoke(sendV2("Dense", 0, props("UNIQ_KEY", "d" + i),
                    ("d" + i).getBytes(StandardCharsets.UTF_8)).putExtField("f", sysFlag));
            assertThat(sent.code()).isEqualTo(ResponseCode.SUCCESS);
            if (sysFlag == 0) {
                answered.add(Long.parseLong(sent.extField("queueOffset")));
            } else {
                assertThat(sent.extField("queueOffset")).isEqualTo("0");
            }
        }
        assertThat(answered).containsExactly(0L, 1L);
        assertThat(pullAll("Dense", 0)).extracting(BrokerClient.Record::body).containsExactly("d0", "d3");
        Await.until("max offset 2", Duration.ofSeconds(5), () -> binding.store().getMaxOffsetInQueue("Dense", 0) == 2);
    }

    @Test
    void aPromotedSlaveChecksBackWhatItsMasterLeftOpenAndNothingItEnded() throws Exception {
        int masterHa = HaNode.freePort();
        other = open(dir.resolve("master"), "haListenPort", Integer.toString(masterHa));
        connect(other);
        Half committed = prepare("TopicTx", "f1");
        Half open = prepare("TopicTx", "f2");
        Half rolledBack = prepare("TopicTx", "f3");
        assertThat(end(committed, COMMIT, false).code()).isEqualTo(ResponseCode.SUCCESS);
        assertThat(end(rolledBack, ROLLBACK, false).code()).isEqualTo(ResponseCode.SUCCESS);
        MessageStoreBinding masterBinding = binding;

        broker = open(dir.resolve("slave"), "brokerRole", "SLAVE", "brokerId", "1",
                "haMasterAddress", "127.0.0.1:" + masterHa);
        MessageStoreBinding slaveBinding = binding;
        assertThat(slaveBinding.transactions().checking()).isFalse();
        Await.until("the slave holding the master's log", Duration.ofSeconds(20), () ->
                slaveBinding.store().getCommitLogMaxOffset() == masterBinding.store().getCommitLogMaxOffset()
                        && slaveBinding.store().getMaxOffsetInQueue("RMQ_SYS_TRANS_OP_HALF_TOPIC", 0) == 2);
        other.close();
        other = null;

        // Without a name server the slave never copied the master's offsets: it rebuilds from the queues alone.
        slaveBinding.store().becomeMaster(0, 0);
        assertThat(slaveBinding.transactions().checking()).isTrue();
        connect(broker);
        clock.advance(Duration.ofSeconds(7));
        assertThat(checkNow()).isEqualTo(1);
        RemotingCommand check = nextCheck();
        assertThat(check.extField("msgId")).isEqualTo(open.uniqKey());
        assertThat(end(committed, COMMIT, false).code()).isEqualTo(ResponseCode.SYSTEM_ERROR);
        assertThat(answer(check, COMMIT).code()).isEqualTo(ResponseCode.SUCCESS);
        // Stands in for the metadata sync a name server would have allowed: the new master serves TopicTx.
        assertThat(client.invoke(RemotingCommand.request(RequestCode.UPDATE_AND_CREATE_TOPIC)
                .putExtField("topic", "TopicTx").putExtField("readQueueNums", 4).putExtField("writeQueueNums", 4)
                .putExtField("perm", 6)).code()).isEqualTo(ResponseCode.SUCCESS);
        assertThat(pullAll("TopicTx", 1)).extracting(BrokerClient.Record::body).containsExactly("f1", "f2");
    }

    @Test
    void checkImmunityTimeDelaysTheFirstCheckBackAndRefusesALateEnd() throws Exception {
        start();
        Half half = prepare("TopicTx", "i1", "CHECK_IMMUNITY_TIME_IN_SECONDS", "20");
        clock.advance(Duration.ofSeconds(7));
        assertThat(checkNow()).as("past transactionTimeOut, inside the immunity").isZero();
        assertThat(pullAll("RMQ_SYS_TRANS_HALF_TOPIC", 0)).hasSize(2).last().satisfies(copy -> assertThat(
                copy.properties()).containsEntry("TRAN_PREPARED_QUEUE_OFFSET", "0")
                .doesNotContainKey("TRANSACTION_CHECK_TIMES"));
        clock.advance(Duration.ofSeconds(14));
        RemotingCommand late = end(half, COMMIT, false);
        assertThat(late.code()).as("not from a check, after the immunity").isEqualTo(ResponseCode.ILLEGAL_OPERATION);
        assertThat(checkNow()).isEqualTo(1);
        RemotingCommand check = nextCheck();
        assertThat(BrokerClient.decode(check.body()).get(0).properties()).containsEntry("TRANSACTION_CHECK_TIMES", "1");
        RemotingCommand afterImmunity = client.invoke(endRequest(Long.parseLong(check.extField("commitLogOffset")),
                Long.parseLong(check.extField("tranStateTableOffset")), COMMIT, false, GROUP, "ID-i1"));
        assertThat(afterImmunity.code()).as("not from a check, after the immunity")
                .isEqualTo(ResponseCode.ILLEGAL_OPERATION);
        assertThat(answer(check, COMMIT).code()).isEqualTo(ResponseCode.SUCCESS);
        assertThat(pullAll("TopicTx", 1)).extracting(BrokerClient.Record::body).containsExactly("i1");
    }

    private MessageEvents events() {
        return broker.runtime().stats().events();
    }
}
