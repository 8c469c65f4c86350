package org.modmq.broker.processor;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Properties;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.modmq.broker.client.ConsumerGroupRegistry;
import org.modmq.broker.client.ProducerRegistry;
import org.modmq.broker.config.BrokerConfig;
import org.modmq.broker.metadata.BrokerMetadata;
import org.modmq.broker.runtime.MetadataOnlyStoreBinding;
import org.modmq.broker.testing.FakeChannel;
import org.modmq.broker.testing.TestConfigs;
import org.modmq.remoting.protocol.Json;
import org.modmq.remoting.protocol.RemotingCommand;
import org.modmq.remoting.protocol.RequestCode;
import org.modmq.remoting.protocol.ResponseCode;
import org.modmq.remoting.protocol.body.DataVersion;

class AdminProcessorsTest {

    @TempDir
    Path dir;

    private final FakeChannel channel = new FakeChannel("admin");
    private BrokerConfig config;
    private BrokerMetadata metadata;
    private ConsumerGroupRegistry consumers;
    private ProducerRegistry producers;
    private TopicAdminProcessor topics;
    private GroupAdminProcessor groups;
    private ClientManageProcessor clients;

    @BeforeEach
    void setUp() {
        config = TestConfigs.broker(dir);
        metadata = BrokerMetadata.open(config, Clock.systemUTC());
        consumers = new ConsumerGroupRegistry(Clock.systemUTC(), g -> { });
        producers = new ProducerRegistry(Clock.systemUTC());
        topics = new TopicAdminProcessor(config.identity(), metadata, new MetadataOnlyStoreBinding());
        groups = new GroupAdminProcessor(metadata, consumers, producers);
        clients = new ClientManageProcessor(metadata, consumers, producers);
    }

    private RemotingCommand createTopic(String topic) {
        return topics.process(channel, RemotingCommand.request(RequestCode.UPDATE_AND_CREATE_TOPIC)
                .putExtField("topic", topic).putExtField("defaultTopic", "TBW102").putExtField("readQueueNums", 4)
                .putExtField("writeQueueNums", 4).putExtField("perm", 6).putExtField("topicFilterType", "SINGLE_TAG")
                .putExtField("topicSysFlag", 0).putExtField("order", false).putExtField("attributes", "+k=v"));
    }

    @Test
    void createsReadsAndDeletesTopics() throws IOException {
        assertThat(createTopic("TopicTest").code()).isEqualTo(ResponseCode.SUCCESS);
        assertThat(metadata.topics().get("TopicTest").orElseThrow().attributes()).containsEntry("k", "v");
        assertThat(createTopic("bad topic").code()).isEqualTo(ResponseCode.INVALID_PARAMETER);
        assertThat(createTopic("SCHEDULE_TOPIC_XXXX").code()).isEqualTo(ResponseCode.INVALID_PARAMETER);

        RemotingCommand one = topics.process(channel, RemotingCommand.request(RequestCode.GET_TOPIC_CONFIG)
                .putExtField("topic", "TopicTest"));
        assertThat(Json.mapper().readTree(one.body()).path("writeQueueNums").asInt()).isEqualTo(4);
        assertThat(topics.process(channel, RemotingCommand.request(RequestCode.GET_TOPIC_CONFIG)
                .putExtField("topic", "Missing")).code()).isEqualTo(ResponseCode.TOPIC_NOT_EXIST);

        JsonNode all = Json.mapper().readTree(topics.process(channel,
                RemotingCommand.request(RequestCode.GET_ALL_TOPIC_CONFIG)).body());
        assertThat(all.has("dataVersion")).isTrue();
        assertThat(all.has("mappingDataVersion")).isTrue();
        assertThat(all.path("topicQueueMappingInfoMap").isObject()).isTrue();
        assertThat(all.path("topicConfigTable").has("TopicTest")).isTrue();

        metadata.consumerOffsets().commit("cg", "TopicTest", 0, 3);
        assertThat(topics.process(channel, RemotingCommand.request(RequestCode.DELETE_TOPIC_IN_BROKER)
                .putExtField("topic", "TopicTest")).code()).isEqualTo(ResponseCode.SUCCESS);
        assertThat(metadata.topics().get("TopicTest")).isEmpty();
        assertThat(metadata.consumerOffsets().query("cg", "TopicTest", 0)).isEmpty();
        assertThat(topics.process(channel, RemotingCommand.request(RequestCode.DELETE_TOPIC_IN_BROKER)
                .putExtField("topic", "TBW102")).code()).isEqualTo(ResponseCode.INVALID_PARAMETER);
    }

    @Test
    void heartbeatCreatesGroupAndRetryTopicAndConnectionsAreListed() throws IOException {
        RemotingCommand heartbeat = RemotingCommand.request(RequestCode.HEART_BEAT).withBody(
                org.modmq.broker.testing.Samples.PUSH_CONSUMER_HEARTBEAT.getBytes(StandardCharsets.UTF_8));
        RemotingCommand answer = clients.process(channel, heartbeat);
        assertThat(answer.code()).isEqualTo(ResponseCode.SUCCESS);
        assertThat(answer.version()).isEqualTo(479);
        assertThat(metadata.subscriptionGroups().get("pushg")).isPresent();
        assertThat(metadata.topics().get("%RETRY%pushg").orElseThrow().writeQueueNums()).isEqualTo(1);

        JsonNode consumerConnection = Json.mapper().readTree(groups.process(channel,
                RemotingCommand.request(RequestCode.GET_CONSUMER_CONNECTION_LIST).putExtField("consumerGroup", "pushg"))
                .body());
        assertThat(consumerConnection.path("connectionSet").get(0).path("clientId").asText())
                .isEqualTo("127.0.0.1@pushinst");
        assertThat(consumerConnection.path("connectionSet").get(0).path("language").asText()).isEqualTo("JAVA");
        assertThat(consumerConnection.path("messageModel").asText()).isEqualTo("CLUSTERING");
        assertThat(consumerConnection.path("subscriptionTable").has("TopicA")).isTrue();
        assertThat(groups.process(channel, RemotingCommand.request(RequestCode.GET_CONSUMER_CONNECTION_LIST)
                .putExtField("consumerGroup", "nobody")).code()).isEqualTo(ResponseCode.CONSUMER_NOT_ONLINE);
        assertThat(groups.process(channel, RemotingCommand.request(RequestCode.GET_PRODUCER_CONNECTION_LIST)
                .putExtField("producerGroup", "CLIENT_INNER_PRODUCER")).code()).isEqualTo(ResponseCode.SUCCESS);

        clients.process(channel, RemotingCommand.request(RequestCode.UNREGISTER_CLIENT)
                .putExtField("clientID", "127.0.0.1@pushinst").putExtField("consumerGroup", "pushg"));
        assertThat(consumers.group("pushg")).isEmpty();
        assertThat(clients.process(channel, RemotingCommand.request(RequestCode.HEART_BEAT)
                .withBody("not json".getBytes(StandardCharsets.UTF_8))).code()).isEqualTo(ResponseCode.SYSTEM_ERROR);
    }

    @Test
    void managesSubscriptionGroupsAndServesBrokerWideTables() throws IOException {
        RemotingCommand create = RemotingCommand.request(RequestCode.UPDATE_AND_CREATE_SUBSCRIPTIONGROUP)
                .withBody("{\"groupName\":\"cg\",\"consumeMessageOrderly\":true}".getBytes(StandardCharsets.UTF_8));
        assertThat(groups.process(channel, create).code()).isEqualTo(ResponseCode.SUCCESS);
        JsonNode one = Json.mapper().readTree(groups.process(channel,
                RemotingCommand.request(RequestCode.GET_SUBSCRIPTIONGROUP_CONFIG).putExtField("group", "cg")).body());
        assertThat(one.path("consumeMessageOrderly").asBoolean()).isTrue();
        assertThat(one.path("consumeEnable").asBoolean()).isTrue();
        JsonNode all = Json.mapper().readTree(groups.process(channel,
                RemotingCommand.request(RequestCode.GET_ALL_SUBSCRIPTIONGROUP_CONFIG)).body());
        assertThat(all.path("subscriptionGroupTable").has("cg")).isTrue();
        assertThat(groups.process(channel, RemotingCommand.request(RequestCode.UPDATE_AND_CREATE_SUBSCRIPTIONGROUP)
                .withBody("[1]".getBytes(StandardCharsets.UTF_8))).code()).isEqualTo(ResponseCode.INVALID_PARAMETER);

        metadata.consumerOffsets().commit("cg", "T", 0, 5);
        BrokerAdminProcessor admin = new BrokerAdminProcessor(config, metadata, DataVersion.initial(Clock.systemUTC()));
        JsonNode offsets = Json.mapper().readTree(admin.process(channel,
                RemotingCommand.request(RequestCode.GET_ALL_CONSUMER_OFFSET)).body());
        assertThat(offsets.path("offsetTable").path("T@cg").path("0").asLong()).isEqualTo(5);
        assertThat(Json.mapper().readTree(admin.process(channel,
                RemotingCommand.request(RequestCode.GET_ALL_DELAY_OFFSET)).body()).has("offsetTable")).isTrue();
        RemotingCommand brokerConfig = admin.process(channel, RemotingCommand.request(RequestCode.GET_BROKER_CONFIG));
        Properties properties = new Properties();
        properties.load(new java.io.StringReader(new String(brokerConfig.body(), StandardCharsets.UTF_8)));
        assertThat(properties.getProperty("brokerName")).isEqualTo("broker-a");
        assertThat(brokerConfig.extField("version")).contains("counter");

        assertThat(groups.process(channel, RemotingCommand.request(RequestCode.DELETE_SUBSCRIPTIONGROUP)
                .putExtField("groupName", "cg").putExtField("cleanOffset", true)).code()).isEqualTo(ResponseCode.SUCCESS);
        assertThat(metadata.subscriptionGroups().get("cg")).isEmpty();
        assertThat(metadata.consumerOffsets().query("cg", "T", 0)).isEmpty();
    }
}
