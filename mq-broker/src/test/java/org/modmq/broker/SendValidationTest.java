package org.modmq.broker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.modmq.broker.BrokerClient.props;
import static org.modmq.broker.BrokerClient.sendV2;

import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.modmq.broker.data.MessageStoreBinding;
import org.modmq.broker.runtime.PluginSelection;
import org.modmq.broker.testing.TestConfigs;
import org.modmq.remoting.netty.RemotingClient;
import org.modmq.remoting.netty.RemotingClientConfig;
import org.modmq.remoting.protocol.RemotingCommand;
import org.modmq.remoting.protocol.RequestCode;
import org.modmq.remoting.protocol.ResponseCode;

/** Sends RocketMQ refuses, as raw frames against a real broker: each is answered clearly and stores nothing. */
@Tag("integration")
@Timeout(60)
class SendValidationTest {

    private static final int MAX = 1024;

    @TempDir
    Path dir;

    private BrokerServer broker;
    private RemotingClient remoting;
    private BrokerClient client;
    private volatile MessageStoreBinding binding;

    private void start() {
        broker = new BrokerServer(TestConfigs.broker(dir, "mappedFileSizeCommitLog", "1048576",
                "mappedFileSizeConsumeQueue", "20000", "maxMessageSize", Integer.toString(MAX)), Clock.systemUTC(),
                runtime -> {
                    binding = MessageStoreBinding.open(runtime, PluginSelection.discover());
                    return binding;
                }).start();
        remoting = new RemotingClient(RemotingClientConfig.defaults());
        client = new BrokerClient(remoting, broker.brokerAddr());
        RemotingCommand created = client.invoke(RemotingCommand.request(RequestCode.UPDATE_AND_CREATE_TOPIC)
                .putExtField("topic", "Known").putExtField("readQueueNums", 2).putExtField("writeQueueNums", 2)
                .putExtField("perm", 6));
        assertThat(created.code()).isEqualTo(ResponseCode.SUCCESS);
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

    private void assertRefused(RemotingCommand request, int code, String remarkPart) {
        long before = binding.store().getCommitLogMaxOffset();
        RemotingCommand answer = client.invoke(request);
        assertThat(answer.code()).as(answer.remark()).isEqualTo(code);
        assertThat(answer.remark()).contains(remarkPart);
        assertThat(answer.extFields()).containsKeys("MSG_REGION", "TRACE_ON");
        assertThat(binding.store().getCommitLogMaxOffset()).as("CommitLog max offset").isEqualTo(before);
    }

    private static RemotingCommand batch(String topic, int sysFlag, byte[] body) {
        return sendV2(topic, 0, props("UNIQ_KEY", "BATCH"), body).setCode(RequestCode.SEND_BATCH_MESSAGE)
                .putExtField("m", true).putExtField("f", sysFlag);
    }

    @Test
    void maxMessageSizeBoundsTheBodyAsRocketMqDoes() {
        start();
        assertRefused(sendV2("Known", 0, "", new byte[MAX + 1]), ResponseCode.MESSAGE_ILLEGAL,
                "msg body length limit " + MAX + "B");
        byte[] twoHalves = BrokerClient.batchBody(List.of("x".repeat(MAX / 2), "y".repeat(MAX / 2)),
                List.of("", ""));
        assertRefused(batch("Known", 0, twoHalves), ResponseCode.MESSAGE_ILLEGAL, "batch body");
        assertThat(binding.store().getCommitLogMaxOffset()).isZero();

        // A body of exactly maxMessageSize is taken, with properties beside it in the stored record.
        RemotingCommand exact = client.invoke(sendV2("Known", 0, props("KEYS", "k".repeat(2000), "WAIT", "true"),
                new byte[MAX]));
        assertThat(exact.code()).as(exact.remark()).isEqualTo(ResponseCode.SUCCESS);
        assertThat(binding.store().getCommitLogMaxOffset()).isGreaterThan(MAX + 2000);
    }

    @Test
    void refusesSysFlagsAndSystemPropertiesThatRocketMqRefuses() {
        start();
        assertRefused(sendV2("Known", 0, "", new byte[1]).putExtField("f", -1), ResponseCode.MESSAGE_ILLEGAL,
                "sysFlag -1");
        assertRefused(sendV2("Known", 0, "", new byte[1]).putExtField("f", 0x80), ResponseCode.MESSAGE_ILLEGAL,
                "INNER_BATCH");
        assertRefused(sendV2("Known", 0, "", new byte[1]).putExtField("f", 0x40), ResponseCode.MESSAGE_ILLEGAL,
                "NEED_UNWRAP");
        for (String[] bad : new String[][] {{"DELAY", "abc"}, {"DELAY", "-1"}, {"TIMER_DELIVER_MS", "abc"},
            {"TIMER_DELIVER_MS", "-1"}, {"TIMER_DELAY_MS", "-5"}, {"TIMER_DELAY_MS", "1.5"},
            {"TIMER_DELAY_SEC", "junk"}, {"TIMER_DELAY_SEC", "99999999999999999"}, {"INNER_NUM", "2"}}) {
            assertRefused(sendV2("Known", 0, props(bad[0], bad[1]), new byte[1]), ResponseCode.MESSAGE_ILLEGAL,
                    bad[0]);
        }
        byte[] one = BrokerClient.batchBody(List.of("m1"), List.of(props("DELAY", "x")));
        assertRefused(batch("Known", 0, one), ResponseCode.MESSAGE_ILLEGAL, "DELAY=x");
        byte[] plain = BrokerClient.batchBody(List.of("m1"), List.of(""));
        assertRefused(batch("%RETRY%g1", 0, plain), ResponseCode.MESSAGE_ILLEGAL,
                "batch request does not support retry group %RETRY%g1");
        assertRefused(batch("Known", 0x4, plain), ResponseCode.MESSAGE_ILLEGAL, "transactional");
        assertRefused(batch("Known", 0x80, plain), ResponseCode.MESSAGE_ILLEGAL, "INNER_BATCH");
        assertThat(binding.store().getCommitLogMaxOffset()).isZero();
    }

    @Test
    void sendsDoNotCreateSystemTopics() {
        start();
        for (String topic : List.of("%DLQ%g1", "rmq_sys_mine", "RMQ_SYS_TRANS_HALF_TOPIC2", "CHECKPOINT_TOPIC")) {
            assertRefused(sendV2(topic, 0, "", new byte[1]), ResponseCode.INVALID_PARAMETER,
                    "The topic[" + topic + "] is conflict with system topic.");
            assertThat(client.invoke(RemotingCommand.request(RequestCode.GET_TOPIC_CONFIG).putExtField("topic", topic))
                    .code()).isEqualTo(ResponseCode.TOPIC_NOT_EXIST);
        }
        assertRefused(sendV2("x".repeat(128), 0, "", new byte[1]), ResponseCode.INVALID_PARAMETER,
                "is longer than topic max length: 127");
        assertThat(binding.store().getCommitLogMaxOffset()).isZero();
        // A client with message tracing sends to the trace topic, which a send may still create.
        RemotingCommand trace = client.invoke(sendV2("RMQ_SYS_TRACE_TOPIC", 0, props("WAIT", "true"), new byte[1]));
        assertThat(trace.code()).as(trace.remark()).isEqualTo(ResponseCode.SUCCESS);
    }
}
