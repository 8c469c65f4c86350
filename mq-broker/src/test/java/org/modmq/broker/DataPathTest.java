package org.modmq.broker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.modmq.broker.BrokerClient.props;
import static org.modmq.broker.BrokerClient.pull;
import static org.modmq.broker.BrokerClient.sendV2;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.modmq.broker.data.MessageStoreBinding;
import org.modmq.broker.data.PullMessageProcessor;
import org.modmq.broker.runtime.PluginSelection;
import org.modmq.broker.testing.Samples;
import org.modmq.broker.testing.TestConfigs;
import org.modmq.remoting.netty.RemotingClient;
import org.modmq.remoting.netty.RemotingClientConfig;
import org.modmq.remoting.protocol.RemotingCommand;
import org.modmq.remoting.protocol.RequestCode;
import org.modmq.remoting.protocol.ResponseCode;

@Tag("integration")
@Timeout(60)
class DataPathTest {

    private static final int SUB = PullMessageProcessor.FLAG_SUBSCRIPTION;

    @TempDir
    Path dir;

    private BrokerServer broker;
    private RemotingClient remoting;
    private BrokerClient client;
    private volatile MessageStoreBinding binding;

    private void start(String... keyValues) {
        String[] base = {"mappedFileSizeCommitLog", "1048576", "mappedFileSizeConsumeQueue", "20000"};
        String[] all = new String[base.length + keyValues.length];
        System.arraycopy(base, 0, all, 0, base.length);
        System.arraycopy(keyValues, 0, all, base.length, keyValues.length);
        broker = new BrokerServer(TestConfigs.broker(dir, all), Clock.systemUTC(), runtime -> {
            binding = MessageStoreBinding.open(runtime, PluginSelection.discover());
            return binding;
        }).start();
        remoting = new RemotingClient(RemotingClientConfig.defaults());
        client = new BrokerClient(remoting, broker.brokerAddr());
    }

    @AfterEach
    void stop() {
        if (remoting != null) {
            remoting.close();
        }
        if (broker != null) {
            broker.close();
        }
    }

    private RemotingCommand send(String topic, String tags, String keys, String body) {
        return client.invoke(sendV2(topic, 0, props("KEYS", keys, "UNIQ_KEY", "ID-" + body, "WAIT", "true",
                "TAGS", tags), body.getBytes(StandardCharsets.UTF_8)));
    }

    private long maxOffset(String topic, int queueId) {
        return Long.parseLong(client.invoke(RemotingCommand.request(RequestCode.GET_MAX_OFFSET)
                .putExtField("topic", topic).putExtField("queueId", queueId)).extField("offset"));
    }

    @Test
    void sendV2AnswersExactlyTheStockHeaderAndPullReturnsTheStoredRecords() {
        start("messageDelayLevel", "1s 1s 1s");
        RemotingCommand sent = send("TopicA", "TagA", "k1 k2", "hello");
        assertThat(sent.code()).isEqualTo(ResponseCode.SUCCESS);
        assertThat(sent.extFields()).containsOnlyKeys("msgId", "queueId", "queueOffset", "transactionId",
                "MSG_REGION", "TRACE_ON");
        assertThat(sent.extFields()).containsEntry("queueId", "0").containsEntry("queueOffset", "0")
                .containsEntry("transactionId", "ID-hello").containsEntry("MSG_REGION", "DefaultRegion")
                .containsEntry("TRACE_ON", "true");
        String port = String.format("%08X", broker.port());
        assertThat(sent.extField("msgId")).hasSize(32).startsWith("7F000001" + port);
        assertThat(send("TopicA", "TagB", "k3", "world").extField("queueOffset")).isEqualTo("1");

        RemotingCommand pulled = client.invoke(pull("g1", "TopicA", 0, 0, SUB, 0, 0, "*"));
        assertThat(pulled.code()).isEqualTo(ResponseCode.SUCCESS);
        assertThat(pulled.extFields()).containsEntry("nextBeginOffset", "2").containsEntry("minOffset", "0")
                .containsEntry("maxOffset", "2").containsEntry("suggestWhichBrokerId", "0");
        List<BrokerClient.Record> records = BrokerClient.decode(pulled.body());
        assertThat(records).extracting(BrokerClient.Record::body).containsExactly("hello", "world");
        assertThat(records).extracting(BrokerClient.Record::queueOffset).containsExactly(0L, 1L);
        BrokerClient.Record first = records.get(0);
        assertThat(first.topic()).isEqualTo("TopicA");
        assertThat(first.properties()).containsEntry("TAGS", "TagA").containsEntry("CLUSTER", "DefaultCluster")
                .containsEntry("MSG_REGION", "DefaultRegion").containsEntry("TRACE_ON", "true")
                .containsEntry("UNIQ_KEY", "ID-hello");
        assertThat(Long.parseLong(sent.extField("msgId").substring(16), 16)).isEqualTo(first.physicalOffset());

        RemotingCommand viewed = client.invoke(RemotingCommand.request(RequestCode.VIEW_MESSAGE_BY_ID)
                .putExtField("offset", first.physicalOffset()));
        assertThat(viewed.code()).isEqualTo(ResponseCode.SUCCESS);
        assertThat(viewed.body()).isEqualTo(first.raw());

        RemotingCommand filtered = client.invoke(pull("g1", "TopicA", 0, 0, SUB, 0, 0, "TagB"));
        assertThat(BrokerClient.decode(filtered.body())).extracting(BrokerClient.Record::body).containsExactly("world");
        RemotingCommand none = client.invoke(pull("g1", "TopicA", 0, 0, SUB, 0, 0, "TagC"));
        assertThat(none.code()).isEqualTo(ResponseCode.PULL_RETRY_IMMEDIATELY);
        assertThat(none.extField("nextBeginOffset")).isEqualTo("2");
        assertThat(client.invoke(pull("g1", "TopicA", 0, 2, SUB, 0, 0, "*")).code())
                .isEqualTo(ResponseCode.PULL_NOT_FOUND);
        RemotingCommand moved = client.invoke(pull("g1", "TopicA", 0, 100, SUB, 0, 0, "*"));
        assertThat(moved.code()).isEqualTo(ResponseCode.PULL_OFFSET_MOVED);
        assertThat(moved.extField("nextBeginOffset")).isEqualTo("2");

        RemotingCommand byKey = client.invoke(RemotingCommand.request(RequestCode.QUERY_MESSAGE)
                .putExtField("topic", "TopicA").putExtField("key", "k2").putExtField("maxNum", 64)
                .putExtField("beginTimestamp", 0).putExtField("endTimestamp", Long.MAX_VALUE));
        assertThat(byKey.code()).isEqualTo(ResponseCode.SUCCESS);
        assertThat(byKey.extFields()).containsKeys("indexLastUpdateTimestamp", "indexLastUpdatePhyoffset");
        assertThat(BrokerClient.decode(byKey.body())).extracting(BrokerClient.Record::body).containsExactly("hello");
        RemotingCommand byUniq = client.invoke(RemotingCommand.request(RequestCode.QUERY_MESSAGE)
                .putExtField("topic", "TopicA").putExtField("key", "ID-world").putExtField("maxNum", 1)
                .putExtField("beginTimestamp", 0).putExtField("endTimestamp", Long.MAX_VALUE)
                .putExtField("_UNIQUE_KEY_QUERY", "true"));
        assertThat(BrokerClient.decode(byUniq.body())).extracting(BrokerClient.Record::body).containsExactly("world");
        assertThat(client.invoke(RemotingCommand.request(RequestCode.QUERY_MESSAGE)
                .putExtField("topic", "TopicA").putExtField("key", "nope").putExtField("maxNum", 64)
                .putExtField("beginTimestamp", 0).putExtField("endTimestamp", Long.MAX_VALUE)).code())
                .isEqualTo(ResponseCode.QUERY_NOT_FOUND);

        RemotingCommand back = client.invoke(RemotingCommand.request(RequestCode.CONSUMER_SEND_MSG_BACK)
                .putExtField("offset", first.physicalOffset()).putExtField("group", "g1")
                .putExtField("delayLevel", 0).putExtField("maxReconsumeTimes", 16));
        assertThat(back.code()).isEqualTo(ResponseCode.SUCCESS);
        // delayLevel 0 and reconsumeTimes 0: level 3 (1 s here), so the retry waits in SCHEDULE_TOPIC_XXXX queue 2.
        assertThat(maxOffset("SCHEDULE_TOPIC_XXXX", 2)).isEqualTo(1);
        assertThat(maxOffset("%RETRY%g1", 0)).isZero();
        org.modmq.broker.testing.Await.until("retry delivered", BrokerClient.WAIT,
                () -> maxOffset("%RETRY%g1", 0) == 1);
        RemotingCommand retried = client.invoke(pull("g1", "%RETRY%g1", 0, 0, SUB, 0, 0, "*"));
        BrokerClient.Record retry = BrokerClient.decode(retried.body()).get(0);
        assertThat(retry.body()).isEqualTo("hello");
        assertThat(retry.reconsumeTimes()).isEqualTo(1);
        assertThat(retry.properties()).containsEntry("RETRY_TOPIC", "TopicA").containsKey("ORIGIN_MESSAGE_ID")
                .containsEntry("REAL_TOPIC", "%RETRY%g1").doesNotContainKey("DELAY");
        assertThat(broker.runtime().stats().events().sentToDlq("g1", "TopicA", false)).isZero();

        // delayLevel -1: straight to the DLQ, counted under the original topic.
        assertThat(client.invoke(RemotingCommand.request(RequestCode.CONSUMER_SEND_MSG_BACK)
                .putExtField("offset", retry.physicalOffset()).putExtField("group", "g1")
                .putExtField("delayLevel", -1).putExtField("maxReconsumeTimes", 16)).code())
                .isEqualTo(ResponseCode.SUCCESS);
        assertThat(maxOffset("%DLQ%g1", 0)).isEqualTo(1);
        assertThat(broker.runtime().stats().events().sentToDlq("g1", "TopicA", false)).isEqualTo(1);
    }

    @Test
    void sendBackToAnOffsetWhereNoRecordStartsIsRefusedAndCreatesNothing() {
        start();
        assertThat(send("TopicB", "T", "k", "hello").code()).isEqualTo(ResponseCode.SUCCESS);
        long end = binding.store().getCommitLogMaxOffset();
        RemotingCommand back = client.invoke(RemotingCommand.request(RequestCode.CONSUMER_SEND_MSG_BACK)
                .putExtField("offset", 7).putExtField("group", "fresh-group").putExtField("delayLevel", 0)
                .putExtField("maxReconsumeTimes", 16));
        assertThat(back.code()).isEqualTo(ResponseCode.SYSTEM_ERROR);
        assertThat(back.remark()).isEqualTo("look message by offset failed, 7");
        assertThat(broker.runtime().metadata().topics().get("%RETRY%fresh-group")).isEmpty();
        assertThat(broker.runtime().metadata().subscriptionGroups().get("fresh-group")).isEmpty();
        assertThat(binding.store().getCommitLogMaxOffset()).isEqualTo(end);
    }

    @Test
    void batchSendStoresEveryMessageWithItsOwnUniqueKey() {
        start();
        byte[] body = BrokerClient.batchBody(List.of("m1", "m2", "m3"), List.of(props("TAGS", "T", "UNIQ_KEY", "u1"),
                props("TAGS", "T", "UNIQ_KEY", "u2"), props("TAGS", "T", "UNIQ_KEY", "u3")));
        RemotingCommand request = sendV2("BatchTopic", 1, props("UNIQ_KEY", "BATCH", "WAIT", "true"), body)
                .setCode(RequestCode.SEND_BATCH_MESSAGE).putExtField("m", true);
        RemotingCommand sent = client.invoke(request);
        assertThat(sent.code()).isEqualTo(ResponseCode.SUCCESS);
        assertThat(sent.extField("msgId").split(",")).hasSize(3);
        assertThat(sent.extField("queueOffset")).isEqualTo("0");
        List<BrokerClient.Record> records = BrokerClient.decode(client.invoke(
                pull("g", "BatchTopic", 1, 0, SUB, 0, 0, "*")).body());
        assertThat(records).extracting(BrokerClient.Record::body).containsExactly("m1", "m2", "m3");
        // Not the batch's own UNIQ_KEY: consumers take it for the message id.
        assertThat(records).extracting(r -> r.properties().get("UNIQ_KEY")).containsExactly("u1", "u2", "u3");
        assertThat(records).extracting(BrokerClient.Record::queueId).containsOnly(1);
    }

    @Test
    void heldPullIsAnsweredWhenAMessageArrivesAndOnTimeout() throws Exception {
        start();
        send("PollTopic", "T", "k", "first");
        int flags = SUB | PullMessageProcessor.FLAG_SUSPEND;
        CompletableFuture<RemotingCommand> held = remoting.invoke(broker.brokerAddr(),
                pull("pg", "PollTopic", 0, 1, flags, 0, 15_000, "*"), BrokerClient.WAIT);
        org.modmq.broker.testing.Await.until("pull held", BrokerClient.WAIT, () -> !held.isDone()
                && heldPulls() == 1);
        long sentAt = System.nanoTime();
        send("PollTopic", "T", "k", "second");
        RemotingCommand woken = held.get(5, TimeUnit.SECONDS);
        assertThat(System.nanoTime() - sentAt).isLessThan(TimeUnit.SECONDS.toNanos(3));
        assertThat(woken.code()).isEqualTo(ResponseCode.SUCCESS);
        assertThat(BrokerClient.decode(woken.body())).extracting(BrokerClient.Record::body).containsExactly("second");

        long start = System.nanoTime();
        RemotingCommand timedOut = client.invoke(pull("pg", "PollTopic", 0, 2, flags, 0, 300, "*"));
        assertThat(System.nanoTime() - start).isGreaterThanOrEqualTo(TimeUnit.MILLISECONDS.toNanos(300));
        assertThat(timedOut.code()).isEqualTo(ResponseCode.PULL_NOT_FOUND);
        assertThat(timedOut.extField("nextBeginOffset")).isEqualTo("2");
    }

    private int heldPulls() {
        return binding.heldPulls();
    }

    @Test
    void pullPiggybacksTheCommitOffsetAndUsesHeartbeatSubscriptions() {
        start();
        send("TopicA", "TagA", "k", "a");
        send("TopicA", "TagC", "k", "c");
        int flags = PullMessageProcessor.FLAG_COMMIT_OFFSET;
        assertThat(client.invoke(pull("pushg", "TopicA", 0, 0, flags, 1, 0, null)).code())
                .isEqualTo(ResponseCode.SUBSCRIPTION_NOT_EXIST);
        assertThat(client.invoke(RemotingCommand.request(RequestCode.HEART_BEAT)
                .withBody(Samples.PUSH_CONSUMER_HEARTBEAT.getBytes(StandardCharsets.UTF_8))).code())
                .isEqualTo(ResponseCode.SUCCESS);
        RemotingCommand pulled = client.invoke(pull("pushg", "TopicA", 0, 0, flags, 1, 0, null));
        assertThat(pulled.code()).isEqualTo(ResponseCode.SUCCESS);
        assertThat(BrokerClient.decode(pulled.body())).extracting(BrokerClient.Record::body).containsExactly("a");
        assertThat(client.invoke(RemotingCommand.request(RequestCode.QUERY_CONSUMER_OFFSET)
                .putExtField("consumerGroup", "pushg").putExtField("topic", "TopicA").putExtField("queueId", 0))
                .extField("offset")).isEqualTo("1");
    }

    @Test
    void badSendsAreRefusedClearlyAndStoreNothing() {
        start("autoCreateTopicEnable", "false", "maxMessageSize", "1024");
        RemotingCommand noTopic = RemotingCommand.request(RequestCode.SEND_MESSAGE_V2).putExtField("a", "pg")
                .putExtField("c", "TBW102").putExtField("d", 4).putExtField("e", 0).putExtField("f", 0)
                .putExtField("g", 1L).putExtField("h", 0).withBody(new byte[1]);
        RemotingCommand answer = client.invoke(noTopic);
        assertThat(answer.code()).isNotEqualTo(ResponseCode.SUCCESS);
        assertThat(answer.remark()).contains("b");

        RemotingCommand badName = client.invoke(sendV2("bad topic!", 0, "", new byte[1]));
        assertThat(badName.code()).isEqualTo(ResponseCode.INVALID_PARAMETER);
        assertThat(badName.extFields()).containsKeys("MSG_REGION", "TRACE_ON");
        RemotingCommand unknown = client.invoke(sendV2("Unknown", 0, "", new byte[1]));
        assertThat(unknown.code()).isEqualTo(ResponseCode.TOPIC_NOT_EXIST);
        assertThat(unknown.remark()).contains("topic[Unknown] not exist");
        RemotingCommand forbidden = client.invoke(sendV2("SCHEDULE_TOPIC_XXXX", 0, "", new byte[1]));
        assertThat(forbidden.code()).isEqualTo(ResponseCode.NO_PERMISSION);
        client.invoke(RemotingCommand.request(RequestCode.UPDATE_AND_CREATE_TOPIC).putExtField("topic", "Known")
                .putExtField("readQueueNums", 2).putExtField("writeQueueNums", 2).putExtField("perm", 6));
        RemotingCommand big = client.invoke(sendV2("Known", 0, "", new byte[2048]));
        assertThat(big.code()).isEqualTo(ResponseCode.MESSAGE_ILLEGAL);
        assertThat(big.remark()).contains("maxMessageSize");
        RemotingCommand badQueue = client.invoke(sendV2("Known", 5, "", new byte[1]));
        assertThat(badQueue.code()).isEqualTo(ResponseCode.INVALID_PARAMETER);

        assertThat(maxOffset("Known", 0)).isZero();
        assertThat(maxOffset("Unknown", 0)).isZero();
        assertThat(binding.store().getCommitLogMaxOffset()).isZero();
    }

    @Test
    void slaveRefusesSends() {
        start("brokerRole", "SLAVE", "brokerId", "1");
        RemotingCommand refused = client.invoke(sendV2("TopicA", 0, "", new byte[1]));
        assertThat(refused.code()).isEqualTo(ResponseCode.SERVICE_NOT_AVAILABLE);
        assertThat(refused.remark()).contains("SLAVE");
        assertThat(refused.extFields()).containsKeys("MSG_REGION", "TRACE_ON");
    }

    @Test
    void waitFalseOnSyncFlushAnswersWithTheRealOffsets() {
        start("flushDiskType", "SYNC_FLUSH");
        for (String body : List.of("x1", "x2", "x3")) {
            RemotingCommand sent = client.invoke(sendV2("NoWait", 0, props("WAIT", "false", "TAGS", "T"),
                    body.getBytes(StandardCharsets.UTF_8)));
            assertThat(sent.code()).isEqualTo(ResponseCode.SUCCESS);
            BrokerClient.Record record = BrokerClient.decode(client.invoke(pull("g", "NoWait", 0,
                    Long.parseLong(sent.extField("queueOffset")), SUB, 0, 0, "*")).body()).get(0);
            assertThat(record.body()).isEqualTo(body);
            assertThat(Long.parseLong(sent.extField("msgId").substring(16), 16)).isEqualTo(record.physicalOffset());
        }
    }

    @Test
    void queueLocksAreExclusivePerClientUntilUnlocked() {
        start();
        String mq = "{\"topic\":\"T\",\"brokerName\":\"broker-a\",\"queueId\":0}";
        java.util.function.Function<String, String> lock = clientId -> new String(client.invoke(RemotingCommand
                .request(RequestCode.LOCK_BATCH_MQ).withBody(("{\"consumerGroup\":\"og\",\"clientId\":\""
                        + clientId + "\",\"mqSet\":[" + mq + "]}").getBytes(StandardCharsets.UTF_8))).body(),
                StandardCharsets.UTF_8);
        assertThat(lock.apply("c1")).contains("\"queueId\":0");
        assertThat(lock.apply("c2")).isEqualTo("{\"lockOKMQSet\":[]}");
        assertThat(client.invoke(RemotingCommand.request(RequestCode.UNLOCK_BATCH_MQ).withBody(
                ("{\"consumerGroup\":\"og\",\"clientId\":\"c1\",\"mqSet\":[" + mq + "]}")
                        .getBytes(StandardCharsets.UTF_8))).code()).isEqualTo(ResponseCode.SUCCESS);
        assertThat(lock.apply("c2")).contains("\"queueId\":0");
    }
}
