package org.modmq.broker;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.modmq.broker.runtime.MetadataOnlyStoreBinding;
import org.modmq.broker.testing.Await;
import org.modmq.broker.testing.Samples;
import org.modmq.broker.testing.TestConfigs;
import org.modmq.namesrv.NamesrvConfig;
import org.modmq.namesrv.NamesrvServer;
import org.modmq.remoting.netty.RemotingClient;
import org.modmq.remoting.netty.RemotingClientConfig;
import org.modmq.remoting.protocol.Json;
import org.modmq.remoting.protocol.RemotingCommand;
import org.modmq.remoting.protocol.RequestCode;
import org.modmq.remoting.protocol.ResponseCode;

@Tag("integration")
@Timeout(60)
class BrokerServerTest {

    private static final Duration WAIT = Duration.ofSeconds(10);

    @TempDir
    Path dir;

    private static RemotingCommand route(RemotingClient client, String namesrv, String topic) {
        return client.invoke(namesrv, RemotingCommand.request(RequestCode.GET_ROUTEINFO_BY_TOPIC)
                .putExtField("topic", topic), WAIT).join();
    }

    private static JsonNode json(RemotingCommand command) {
        try {
            return Json.mapper().readTree(command.body());
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    @Test
    void registersWithTheNameServerSoThatRoutesCarryItsTopics() {
        try (NamesrvServer namesrv = new NamesrvServer(NamesrvConfig.defaults().withListenPort(0)).start();
             RemotingClient client = new RemotingClient(RemotingClientConfig.defaults())) {
            String namesrvAddr = namesrv.address();
            try (BrokerServer broker = new BrokerServer(TestConfigs.broker(dir, "namesrvAddr", namesrvAddr),
                    Clock.systemUTC(), MetadataOnlyStoreBinding.FACTORY).start()) {
                Await.until("broker registered", WAIT, () -> namesrv.liveBrokerCount() == 1);

                RemotingCommand template = route(client, namesrvAddr, "TBW102");
                assertThat(template.code()).isEqualTo(ResponseCode.SUCCESS);
                JsonNode brokerData = json(template).path("brokerDatas").get(0);
                assertThat(brokerData.path("brokerName").asText()).isEqualTo("broker-a");
                assertThat(brokerData.path("cluster").asText()).isEqualTo("DefaultCluster");
                assertThat(brokerData.path("brokerAddrs").path("0").asText()).isEqualTo(broker.brokerAddr());
                assertThat(json(template).path("queueDatas").get(0).path("perm").asInt()).isEqualTo(7);
                assertThat(route(client, namesrvAddr, "SCHEDULE_TOPIC_XXXX").code()).isEqualTo(ResponseCode.SUCCESS);
                assertThat(route(client, namesrvAddr, "NewTopic").code()).isEqualTo(ResponseCode.TOPIC_NOT_EXIST);

                RemotingCommand created = client.invoke(broker.brokerAddr(), RemotingCommand
                        .request(RequestCode.UPDATE_AND_CREATE_TOPIC).putExtField("topic", "NewTopic")
                        .putExtField("readQueueNums", 4).putExtField("writeQueueNums", 4).putExtField("perm", 6),
                        WAIT).join();
                assertThat(created.code()).isEqualTo(ResponseCode.SUCCESS);
                Await.until("incremental registration of NewTopic", WAIT,
                        () -> route(client, namesrvAddr, "NewTopic").code() == ResponseCode.SUCCESS);
                assertThat(json(route(client, namesrvAddr, "NewTopic")).path("queueDatas").get(0)
                        .path("writeQueueNums").asInt()).isEqualTo(4);

                RemotingCommand heartbeat = client.invoke(broker.brokerAddr(), RemotingCommand
                        .request(RequestCode.HEART_BEAT).withBody(Samples.PUSH_CONSUMER_HEARTBEAT
                                .getBytes(StandardCharsets.UTF_8)), WAIT).join();
                assertThat(heartbeat.code()).isEqualTo(ResponseCode.SUCCESS);
                Await.until("retry topic route", WAIT,
                        () -> route(client, namesrvAddr, "%RETRY%pushg").code() == ResponseCode.SUCCESS);

                RemotingCommand offset = client.invoke(broker.brokerAddr(), RemotingCommand
                        .request(RequestCode.QUERY_CONSUMER_OFFSET).putExtField("consumerGroup", "pushg")
                        .putExtField("topic", "NewTopic").putExtField("queueId", 0), WAIT).join();
                assertThat(offset.code()).isEqualTo(ResponseCode.QUERY_NOT_FOUND);
                client.invokeOneway(broker.brokerAddr(), RemotingCommand.request(RequestCode.UPDATE_CONSUMER_OFFSET)
                        .putExtField("consumerGroup", "pushg").putExtField("topic", "NewTopic")
                        .putExtField("queueId", 0).putExtField("commitOffset", 12)).join();
                Await.until("one-way offset commit applied", WAIT, () -> "12".equals(client.invoke(
                        broker.brokerAddr(), RemotingCommand.request(RequestCode.QUERY_CONSUMER_OFFSET)
                                .putExtField("consumerGroup", "pushg").putExtField("topic", "NewTopic")
                                .putExtField("queueId", 0), WAIT).join().extField("offset")));
            }
            Await.until("broker unregistered on close", WAIT, () -> namesrv.liveBrokerCount() == 0);

            try (BrokerServer restarted = new BrokerServer(TestConfigs.broker(dir), Clock.systemUTC(),
                    MetadataOnlyStoreBinding.FACTORY).start()) {
                assertThat(restarted.runtime().metadata().topics().get("NewTopic")).isPresent();
                assertThat(restarted.runtime().metadata().consumerOffsets().query("pushg", "NewTopic", 0)).hasValue(12);
                assertThat(restarted.runtime().metadata().subscriptionGroups().get("pushg")).isPresent();
            }
        }
    }
}
