package org.modmq.broker.admin;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Properties;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.modmq.broker.BrokerServer;
import org.modmq.broker.testing.TestConfigs;
import org.modmq.remoting.netty.RemotingClient;
import org.modmq.remoting.netty.RemotingClientConfig;
import org.modmq.remoting.protocol.Json;
import org.modmq.remoting.protocol.RemotingCommand;
import org.modmq.remoting.protocol.RequestCode;
import org.modmq.remoting.protocol.ResponseCode;

/** The admin processors as registered in a real broker, over the wire. */
@Tag("integration")
@Timeout(60)
class AdminBrokerServerTest {

    private static final Duration WAIT = Duration.ofSeconds(10);

    @TempDir
    Path dir;

    private static RemotingCommand call(RemotingClient client, String addr, RemotingCommand request) {
        return client.invoke(addr, request, WAIT).join();
    }

    private static Properties brokerConfig(RemotingClient client, String addr) throws IOException {
        RemotingCommand response = call(client, addr, RemotingCommand.request(RequestCode.GET_BROKER_CONFIG));
        assertThat(response.code()).isEqualTo(ResponseCode.SUCCESS);
        Properties properties = new Properties();
        properties.load(new StringReader(new String(response.body(), StandardCharsets.UTF_8)));
        return properties;
    }

    private static RemotingCommand updateConfig(RemotingClient client, String addr, String lines) {
        return call(client, addr, RemotingCommand.request(RequestCode.UPDATE_BROKER_CONFIG)
                .withBody(lines.getBytes(StandardCharsets.UTF_8)));
    }

    @Test
    void answersTheMqadminRequests() throws IOException {
        try (BrokerServer broker = new BrokerServer(TestConfigs.broker(dir), Clock.systemUTC()).start();
             RemotingClient client = new RemotingClient(RemotingClientConfig.defaults())) {
            String addr = broker.brokerAddr();

            RemotingCommand info = call(client, addr, RemotingCommand.request(RequestCode.GET_BROKER_RUNTIME_INFO));
            assertThat(info.code()).isEqualTo(ResponseCode.SUCCESS);
            JsonNode table = Json.tree(info.body()).path("table");
            assertThat(table.path("brokerVersionDesc").asText()).isEqualTo("V5_3_3");
            assertThat(table.path("putTps").asText()).isEqualTo("0.00 0.00 0.00");
            assertThat(Double.parseDouble(table.path("commitLogDiskRatio").asText())).isBetween(0.0, 1.0);

            RemotingCommand created = call(client, addr, RemotingCommand.request(RequestCode.UPDATE_AND_CREATE_TOPIC)
                    .putExtField("topic", "StatsTopic").putExtField("readQueueNums", 3)
                    .putExtField("writeQueueNums", 3).putExtField("perm", 6));
            assertThat(created.code()).isEqualTo(ResponseCode.SUCCESS);
            RemotingCommand topicStats = call(client, addr, RemotingCommand.request(RequestCode.GET_TOPIC_STATS_INFO)
                    .putExtField("topic", "StatsTopic"));
            assertThat(topicStats.code()).isEqualTo(ResponseCode.SUCCESS);
            assertThat(QueueKeyedJson.tree(topicStats.body()).path("offsetTable").size()).isEqualTo(3);
            assertThat(call(client, addr, RemotingCommand.request(RequestCode.GET_TOPIC_STATS_INFO)
                    .putExtField("topic", "Missing")).code()).isEqualTo(ResponseCode.TOPIC_NOT_EXIST);

            client.invokeOneway(addr, RemotingCommand.request(RequestCode.UPDATE_CONSUMER_OFFSET)
                    .putExtField("consumerGroup", "TOOLS_CONSUMER").putExtField("topic", "StatsTopic")
                    .putExtField("queueId", 1).putExtField("commitOffset", 0)).join();
            org.modmq.broker.testing.Await.until("offset committed", WAIT, () -> Json.tree(call(client, addr,
                    RemotingCommand.request(RequestCode.QUERY_TOPIC_CONSUME_BY_WHO).putExtField("topic", "StatsTopic"))
                    .body()).path("groupList").size() == 1);
            RemotingCommand progress = call(client, addr, RemotingCommand.request(RequestCode.GET_CONSUME_STATS)
                    .putExtField("consumerGroup", "TOOLS_CONSUMER"));
            assertThat(progress.code()).isEqualTo(ResponseCode.SUCCESS);
            assertThat(QueueKeyedJson.tree(progress.body()).path("offsetTable").size()).isEqualTo(3);
            assertThat(Json.tree(call(client, addr, RemotingCommand.request(RequestCode.QUERY_TOPICS_BY_CONSUMER)
                    .putExtField("group", "TOOLS_CONSUMER")).body()).path("topicList").get(0).asText())
                    .isEqualTo("StatsTopic");
        }
    }

    @Test
    void changesOnlyRuntimeKeysAllOrNothing() throws IOException {
        try (BrokerServer broker = new BrokerServer(TestConfigs.broker(dir), Clock.systemUTC()).start();
             RemotingClient client = new RemotingClient(RemotingClientConfig.defaults())) {
            String addr = broker.brokerAddr();
            String versionBefore = call(client, addr, RemotingCommand.request(RequestCode.GET_BROKER_CONFIG))
                    .extField("version");
            assertThat(brokerConfig(client, addr).getProperty("slaveReadEnable")).isEqualTo("false");

            RemotingCommand refused = updateConfig(client, addr, "slaveReadEnable=true\nlistenPort=1234\n");
            assertThat(refused.code()).isEqualTo(ResponseCode.NO_PERMISSION);
            assertThat(refused.remark()).contains("listenPort");
            RemotingCommand bad = updateConfig(client, addr, "slaveReadEnable=true\nmaxMessageSize=-1\n");
            assertThat(bad.code()).isEqualTo(ResponseCode.INVALID_PARAMETER);
            assertThat(bad.remark()).contains("maxMessageSize");
            assertThat(brokerConfig(client, addr).getProperty("slaveReadEnable")).isEqualTo("false");

            RemotingCommand applied = updateConfig(client, addr, "slaveReadEnable=true\nbrokerPermission=4\n");
            assertThat(applied.code()).as(applied.remark()).isEqualTo(ResponseCode.SUCCESS);
            Properties after = brokerConfig(client, addr);
            assertThat(after.getProperty("slaveReadEnable")).isEqualTo("true");
            assertThat(after.getProperty("brokerPermission")).isEqualTo("4");
            assertThat(call(client, addr, RemotingCommand.request(RequestCode.GET_BROKER_CONFIG)).extField("version"))
                    .isNotEqualTo(versionBefore);
        }
    }
}
