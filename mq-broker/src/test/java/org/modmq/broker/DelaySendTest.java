package org.modmq.broker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.modmq.broker.BrokerClient.props;
import static org.modmq.broker.BrokerClient.pull;
import static org.modmq.broker.BrokerClient.sendV2;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.modmq.api.config.ConfigException;
import org.modmq.broker.data.MessageStoreBinding;
import org.modmq.broker.data.PullMessageProcessor;
import org.modmq.broker.runtime.PluginSelection;
import org.modmq.broker.testing.Await;
import org.modmq.broker.testing.TestConfigs;
import org.modmq.remoting.netty.RemotingClient;
import org.modmq.remoting.netty.RemotingClientConfig;
import org.modmq.remoting.protocol.RemotingCommand;
import org.modmq.remoting.protocol.RequestCode;
import org.modmq.remoting.protocol.ResponseCode;
import org.modmq.remoting.protocol.body.TopicConfig;

/** Sends, retries and dead letters with delay levels through a real broker ({@code messageDelayLevel=1s 1s 2s}). */
@Tag("integration")
@Timeout(60)
class DelaySendTest {

    private static final int SUB = PullMessageProcessor.FLAG_SUBSCRIPTION;

    @TempDir
    Path dir;

    private BrokerServer broker;
    private RemotingClient remoting;
    private BrokerClient client;
    private MessageStoreBinding binding;

    @BeforeEach
    void start() {
        broker = new BrokerServer(TestConfigs.broker(dir, "mappedFileSizeCommitLog", "1048576",
                "mappedFileSizeConsumeQueue", "20000", "messageDelayLevel", "1s 1s 2s"), Clock.systemUTC(), runtime -> {
                    binding = MessageStoreBinding.open(runtime, PluginSelection.discover());
                    return binding;
                }).start();
        remoting = new RemotingClient(RemotingClientConfig.defaults());
        client = new BrokerClient(remoting, broker.brokerAddr());
        client.invoke(RemotingCommand.request(RequestCode.UPDATE_AND_CREATE_TOPIC).putExtField("topic", "Delayed")
                .putExtField("readQueueNums", 2).putExtField("writeQueueNums", 2).putExtField("perm", 6));
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

    private long maxOffset(String topic, int queueId) {
        return Long.parseLong(client.invoke(RemotingCommand.request(RequestCode.GET_MAX_OFFSET)
                .putExtField("topic", topic).putExtField("queueId", queueId)).extField("offset"));
    }

    private List<BrokerClient.Record> pullAll(String topic, int queueId) {
        RemotingCommand pulled = client.invoke(pull("g", topic, queueId, 0, SUB, 0, 0, "*"));
        return pulled.code() == ResponseCode.SUCCESS ? BrokerClient.decode(pulled.body()) : List.of();
    }

    private RemotingCommand sendBack(long physicalOffset, int delayLevel, int maxReconsumeTimes) {
        return client.invoke(RemotingCommand.request(RequestCode.CONSUMER_SEND_MSG_BACK)
                .putExtField("offset", physicalOffset).putExtField("group", "g").putExtField("delayLevel", delayLevel)
                .putExtField("maxReconsumeTimes", maxReconsumeTimes));
    }

    @Test
    void aDelayedSendWaitsInTheScheduleQueueAndIsAnsweredWithItsOwnQueue() {
        assertThat(broker.runtime().metadata().topics().get("SCHEDULE_TOPIC_XXXX").orElseThrow().queueCount())
                .isEqualTo(3);
        RemotingCommand sent = client.invoke(sendV2("Delayed", 1, props("DELAY", "2", "UNIQ_KEY", "u1",
                "TAGS", "T"), "late".getBytes(StandardCharsets.UTF_8)));
        assertThat(sent.code()).isEqualTo(ResponseCode.SUCCESS);
        assertThat(sent.extField("queueId")).isEqualTo("1");
        assertThat(maxOffset("SCHEDULE_TOPIC_XXXX", 1)).isEqualTo(1);
        assertThat(maxOffset("Delayed", 1)).isZero();

        assertThat(client.invoke(sendV2("Delayed", 0, props("DELAY", "40"), new byte[1])).code())
                .isEqualTo(ResponseCode.SUCCESS);
        assertThat(maxOffset("SCHEDULE_TOPIC_XXXX", 2)).as("a level above the highest is the highest").isEqualTo(1);

        Await.until("delayed message delivered", BrokerClient.WAIT, () -> maxOffset("Delayed", 1) == 1);
        BrokerClient.Record got = pullAll("Delayed", 1).get(0);
        assertThat(got.body()).isEqualTo("late");
        assertThat(got.properties()).doesNotContainKey("DELAY").containsEntry("UNIQ_KEY", "u1")
                .containsEntry("TAGS", "T").containsEntry("REAL_TOPIC", "Delayed").containsEntry("REAL_QID", "1");
        Await.until("clamped message delivered", BrokerClient.WAIT, () -> maxOffset("Delayed", 0) == 1);
        Await.until("level 2's offset past the message", BrokerClient.WAIT, () -> runtimeInfo()
                .contains("\"scheduleMessageOffset_2\":\"1,1\""));
    }

    private String runtimeInfo() {
        return new String(client.invoke(RemotingCommand.request(RequestCode.GET_BROKER_RUNTIME_INFO)).body(),
                StandardCharsets.UTF_8);
    }

    @Test
    void badDelaysAreRefusedAndStoreNothing() {
        RemotingCommand notANumber = client.invoke(sendV2("Delayed", 0, props("DELAY", "soon"), new byte[1]));
        assertThat(notANumber.code()).isEqualTo(ResponseCode.MESSAGE_ILLEGAL);
        assertThat(notANumber.remark()).contains("DELAY");
        byte[] body = BrokerClient.batchBody(List.of("a", "b"), List.of(props("UNIQ_KEY", "1"), props("UNIQ_KEY", "2")));
        RemotingCommand batch = client.invoke(sendV2("Delayed", 0, props("DELAY", "1"), body)
                .setCode(RequestCode.SEND_BATCH_MESSAGE).putExtField("m", true));
        assertThat(batch.code()).isEqualTo(ResponseCode.MESSAGE_ILLEGAL);
        assertThat(binding.store().getCommitLogMaxOffset()).isZero();
        assertThatThrownBy(() -> TestConfigs.broker(dir, "messageDelayLevel", "1s 2q"))
                .isInstanceOf(ConfigException.class).hasMessageContaining("messageDelayLevel=1s 2q");
    }

    @Test
    void retriesGoThroughTheLevelsThenToTheDeadLetterQueue() {
        assertThat(client.invoke(sendV2("Delayed", 0, props("UNIQ_KEY", "r"), "r".getBytes(StandardCharsets.UTF_8)))
                .code()).isEqualTo(ResponseCode.SUCCESS);
        long original = pullAll("Delayed", 0).get(0).physicalOffset();
        assertThat(sendBack(original, 0, 2).code()).isEqualTo(ResponseCode.SUCCESS);
        assertThat(maxOffset("SCHEDULE_TOPIC_XXXX", 2)).as("level 3 + 0 reconsumes").isEqualTo(1);
        Await.until("first retry", BrokerClient.WAIT, () -> maxOffset("%RETRY%g", 0) == 1);
        BrokerClient.Record first = pullAll("%RETRY%g", 0).get(0);
        assertThat(first.reconsumeTimes()).isEqualTo(1);

        assertThat(sendBack(first.physicalOffset(), 0, 2).code()).isEqualTo(ResponseCode.SUCCESS);
        assertThat(maxOffset("SCHEDULE_TOPIC_XXXX", 2)).as("level 4 clamped to 3").isEqualTo(2);
        Await.until("second retry", BrokerClient.WAIT, () -> maxOffset("%RETRY%g", 0) == 2);
        BrokerClient.Record second = pullAll("%RETRY%g", 0).get(1);
        assertThat(second.reconsumeTimes()).isEqualTo(2);
        assertThat(second.properties()).containsEntry("RETRY_TOPIC", "Delayed");

        assertThat(sendBack(second.physicalOffset(), 0, 2).code()).isEqualTo(ResponseCode.SUCCESS);
        TopicConfig dlq = broker.runtime().metadata().topics().get("%DLQ%g").orElseThrow();
        assertThat(dlq.queueCount()).isEqualTo(1);
        assertThat(dlq.perm()).isEqualTo(6);
        BrokerClient.Record dead = pullAll("%DLQ%g", 0).get(0);
        assertThat(dead.body()).isEqualTo("r");
        assertThat(dead.reconsumeTimes()).isEqualTo(3);
        assertThat(dead.properties()).containsEntry("DELAY", "0");

        assertThat(sendBack(original, -1, 16).code()).isEqualTo(ResponseCode.SUCCESS);
        assertThat(maxOffset("%DLQ%g", 0)).as("delayLevel < 0: straight to the DLQ").isEqualTo(2);
        assertThat(maxOffset("SCHEDULE_TOPIC_XXXX", 2)).isEqualTo(2);
    }

    @Test
    void aSendToTheRetryTopicBeyondTheMaximumGoesToTheDeadLetterQueue() {
        RemotingCommand beyond = sendV2("%RETRY%g", 0, props("DELAY", "3"), new byte[1]).putExtField("j", 17);
        assertThat(client.invoke(beyond).code()).isEqualTo(ResponseCode.SUCCESS);
        assertThat(maxOffset("%DLQ%g", 0)).isEqualTo(1);
        RemotingCommand within = sendV2("%RETRY%g", 0, props("DELAY", "3"), new byte[1]).putExtField("j", 2);
        assertThat(client.invoke(within).code()).isEqualTo(ResponseCode.SUCCESS);
        assertThat(maxOffset("SCHEDULE_TOPIC_XXXX", 2)).as("a client's own retry waits its level").isEqualTo(1);
    }
}
