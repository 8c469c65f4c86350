package org.modmq.broker.processor;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.modmq.broker.BrokerServer;
import org.modmq.broker.testing.TestConfigs;
import org.modmq.remoting.netty.RemotingClient;
import org.modmq.remoting.netty.RemotingClientConfig;
import org.modmq.remoting.protocol.RemotingCommand;
import org.modmq.remoting.protocol.RequestCode;
import org.modmq.remoting.protocol.ResponseCode;

/** UPDATE_AND_CREATE_TOPIC and UPDATE_AND_CREATE_SUBSCRIPTIONGROUP validate as RocketMQ does, over the wire. */
@Tag("integration")
@Timeout(60)
class TopicAndGroupValidationTest {

    private static final Duration WAIT = Duration.ofSeconds(10);

    @TempDir
    Path dir;

    private static RemotingCommand createTopic(RemotingClient client, String addr, String topic, Object... fields) {
        RemotingCommand request = RemotingCommand.request(RequestCode.UPDATE_AND_CREATE_TOPIC).putExtField("topic", topic)
                .putExtField("readQueueNums", 4).putExtField("writeQueueNums", 4).putExtField("perm", 6);
        for (int i = 0; i + 1 < fields.length; i += 2) {
            request.putExtField((String) fields[i], fields[i + 1]);
        }
        return client.invoke(addr, request, WAIT).join();
    }

    private static boolean exists(RemotingClient client, String addr, String topic) {
        return client.invoke(addr, RemotingCommand.request(RequestCode.GET_TOPIC_CONFIG).putExtField("topic", topic),
                WAIT).join().code() == ResponseCode.SUCCESS;
    }

    private static RemotingCommand createGroup(RemotingClient client, String addr, String json) {
        return client.invoke(addr, RemotingCommand.request(RequestCode.UPDATE_AND_CREATE_SUBSCRIPTIONGROUP)
                .withBody(json.getBytes(StandardCharsets.UTF_8)), WAIT).join();
    }

    @Test
    void refusesSystemNamesBadNamesAndBadNumbers() {
        try (BrokerServer broker = new BrokerServer(TestConfigs.broker(dir), Clock.systemUTC()).start();
             RemotingClient client = new RemotingClient(RemotingClientConfig.defaults())) {
            String addr = broker.brokerAddr();
            for (String system : new String[] {"%DLQ%x", "%RETRY%x", "rmq_sys_x", "SCHEDULE_TOPIC_XXXX",
                "RMQ_SYS_TRANS_HALF_TOPIC", "RMQ_SYS_ANYTHING", "TBW102", "DefaultCluster", "broker-a"}) {
                RemotingCommand refused = createTopic(client, addr, system);
                assertThat(refused.code()).as(system).isEqualTo(ResponseCode.INVALID_PARAMETER);
                assertThat(refused.remark()).isEqualTo("The topic[" + system + "] is conflict with system topic.");
            }
            assertThat(exists(client, addr, "%DLQ%x")).isFalse();
            assertThat(createTopic(client, addr, "a b").remark())
                    .isEqualTo("The specified topic: a b, contains illegal characters, allowing only ^[%|a-zA-Z0-9_-]+$");
            assertThat(createTopic(client, addr, "t".repeat(128)).remark())
                    .endsWith("is longer than topic max length: 127");
            String[][] badNumbers = {{"writeQueueNums", "0"}, {"readQueueNums", "0"}, {"writeQueueNums", "-1"},
                {"readQueueNums", "1025"}, {"perm", "8"}, {"perm", "-1"}, {"topicSysFlag", "-1"}, {"topicSysFlag", "4"},
                {"topicFilterType", "ANY"}};
            for (String[] bad : badNumbers) {
                RemotingCommand refused = createTopic(client, addr, "Numbers", bad[0], bad[1]);
                assertThat(refused.code()).as(bad[0] + "=" + bad[1]).isEqualTo(ResponseCode.INVALID_PARAMETER);
                assertThat(refused.remark()).contains(bad[0]);
            }
            assertThat(exists(client, addr, "Numbers")).isFalse();
            assertThat(createTopic(client, addr, "Numbers", "topicSysFlag", 3).code()).isEqualTo(ResponseCode.SUCCESS);

            RemotingCommand longGroup = createGroup(client, addr, "{\"groupName\":\"" + "g".repeat(121) + "\"}");
            assertThat(longGroup.code()).isEqualTo(ResponseCode.INVALID_PARAMETER);
            assertThat(longGroup.remark()).endsWith("is longer than group max length: 120");
            assertThat(createGroup(client, addr, "{\"groupName\":\"a/b\"}").remark()).contains("illegal characters");
            assertThat(createGroup(client, addr, "{\"groupName\":\"g1\",\"retryQueueNums\":-1}").remark())
                    .contains("retryQueueNums");
            assertThat(createGroup(client, addr, "{\"groupName\":\"g1\",\"retryQueueNums\":1}").code())
                    .isEqualTo(ResponseCode.SUCCESS);
        }
    }

    @Test
    void anExistingRetryTopicMayStillBeChanged() {
        try (BrokerServer broker = new BrokerServer(TestConfigs.broker(dir), Clock.systemUTC()).start();
             RemotingClient client = new RemotingClient(RemotingClientConfig.defaults())) {
            String addr = broker.brokerAddr();
            // A heartbeat-free way to make the broker create %RETRY%g2: a consumer's send-back would too.
            RemotingCommand send = client.invoke(addr, RemotingCommand.request(RequestCode.SEND_MESSAGE_V2)
                    .putExtField("a", "pg").putExtField("b", "%RETRY%g2").putExtField("c", "TBW102")
                    .putExtField("d", 4).putExtField("e", 0).putExtField("f", 0).putExtField("g", 1L)
                    .putExtField("h", 0).putExtField("i", "").putExtField("j", 0).withBody(new byte[1]), WAIT).join();
            assertThat(send.code()).as(send.remark()).isEqualTo(ResponseCode.SUCCESS);
            assertThat(createTopic(client, addr, "%RETRY%g2", "perm", 4).code()).isEqualTo(ResponseCode.SUCCESS);
        }
    }
}
