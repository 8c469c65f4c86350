package org.modmq.broker.registration;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.zip.CRC32;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.modmq.broker.config.BrokerConfig;
import org.modmq.broker.metadata.TopicConfigTable;
import org.modmq.broker.testing.Await;
import org.modmq.broker.testing.TestConfigs;
import org.modmq.remoting.netty.RemotingClient;
import org.modmq.remoting.netty.RemotingClientConfig;
import org.modmq.remoting.netty.RemotingServer;
import org.modmq.remoting.netty.RemotingServerConfig;
import org.modmq.remoting.netty.RequestProcessor;
import org.modmq.remoting.protocol.Json;
import org.modmq.remoting.protocol.RemotingCommand;
import org.modmq.remoting.protocol.RequestCode;
import org.modmq.remoting.protocol.ResponseCode;
import org.modmq.remoting.protocol.body.TopicConfig;

/** Registration against a recording name-server stand-in: header fields, body shape and CRC. */
@Tag("integration")
@Timeout(30)
class NameServerRegistrationAgentTest {

    private static final Duration WAIT = Duration.ofSeconds(10);

    @TempDir
    Path dir;

    private final ExecutorService executor = Executors.newSingleThreadExecutor();
    private final ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor();
    private final List<RemotingCommand> received = new CopyOnWriteArrayList<>();

    @AfterEach
    void stop() throws InterruptedException {
        executor.shutdownNow();
        scheduler.shutdownNow();
        assertThat(executor.awaitTermination(5, TimeUnit.SECONDS)).isTrue();
    }

    private RemotingServer recordingNameServer(Map<String, String> answerFields) {
        RemotingServer server = new RemotingServer(RemotingServerConfig.of("127.0.0.1", 0));
        server.registerDefaultProcessor(RequestProcessor.sync((channel, request) -> {
            received.add(request);
            RemotingCommand response = RemotingCommand.responseTo(request, ResponseCode.SUCCESS, null);
            answerFields.forEach(response::putExtField);
            return response;
        }), executor);
        return server.start();
    }

    @Test
    void sendsRocketMqHeaderAndBodyWithMaskedCrcAndIncrements() throws Exception {
        try (RemotingServer namesrv = recordingNameServer(Map.of());
             RemotingClient client = new RemotingClient(RemotingClientConfig.defaults())) {
            String address = "127.0.0.1:" + namesrv.port();
            BrokerConfig config = TestConfigs.broker(dir, "namesrvAddr", address);
            TopicConfigTable topics = new TopicConfigTable(dir, Clock.systemUTC(), config.identity(), config.topics());
            RegistrationTarget target = new RegistrationTarget("DefaultCluster", "broker-a", 0, "127.0.0.1:20911",
                    "127.0.0.1:20912", 6);
            try (NameServerRegistrationAgent agent = new NameServerRegistrationAgent(target, config.nameServer(),
                    topics, client, scheduler)) {
                agent.start();
                assertThat(received).hasSize(1);
                RemotingCommand register = received.get(0);
                assertThat(register.code()).isEqualTo(RequestCode.REGISTER_BROKER);
                assertThat(register.extFields()).containsEntry("brokerName", "broker-a")
                        .containsEntry("brokerAddr", "127.0.0.1:20911").containsEntry("clusterName", "DefaultCluster")
                        .containsEntry("haServerAddr", "127.0.0.1:20912").containsEntry("brokerId", "0")
                        .containsEntry("enableActingMaster", "false").containsEntry("compressed", "false");
                CRC32 crc = new CRC32();
                crc.update(register.body());
                assertThat(register.extField("bodyCrc32")).isEqualTo(Long.toString(crc.getValue() & 0x7FFFFFFFL));

                JsonNode body = Json.mapper().readTree(register.body());
                assertThat(body.path("filterServerList").isArray()).isTrue();
                JsonNode wrapper = body.path("topicConfigSerializeWrapper");
                assertThat(wrapper.path("dataVersion").has("counter")).isTrue();
                assertThat(wrapper.has("mappingDataVersion")).isTrue();
                assertThat(wrapper.path("topicConfigTable").path("TBW102").path("perm").asInt()).isEqualTo(7);
                assertThat(wrapper.path("topicConfigTable").size()).isEqualTo(topics.snapshot().size());

                topics.upsert(TopicConfig.of("NewTopic", 4, 6));
                Await.until("incremental registration", WAIT, () -> received.size() == 2);
                JsonNode increment = Json.mapper().readTree(received.get(1).body())
                        .path("topicConfigSerializeWrapper");
                assertThat(increment.path("topicConfigTable").size()).isEqualTo(1);
                assertThat(increment.path("topicConfigTable").has("NewTopic")).isTrue();
                assertThat(increment.path("dataVersion").path("counter").asLong())
                        .isEqualTo(topics.dataVersion().counter());

                agent.unregisterAll(WAIT);
                assertThat(received.get(2).code()).isEqualTo(RequestCode.UNREGISTER_BROKER);
                assertThat(received.get(2).extFields()).containsEntry("brokerId", "0")
                        .containsEntry("brokerAddr", "127.0.0.1:20911");
            }
        }
    }

    @Test
    void aTopicCreatedDuringTheFirstRegistrationIsRegisteredAtOnce() throws Exception {
        java.util.concurrent.atomic.AtomicReference<TopicConfigTable> table = new java.util.concurrent.atomic.AtomicReference<>();
        RemotingServer namesrv = new RemotingServer(RemotingServerConfig.of("127.0.0.1", 0));
        namesrv.registerDefaultProcessor(RequestProcessor.sync((channel, request) -> {
            received.add(request);
            if (received.size() == 1) {
                // an admin creates a topic while the broker's first registration is in flight
                table.get().upsert(TopicConfig.of("EarlyTopic", 4, 6));
            }
            return RemotingCommand.responseTo(request, ResponseCode.SUCCESS, null);
        }), executor);
        try (RemotingServer started = namesrv.start();
             RemotingClient client = new RemotingClient(RemotingClientConfig.defaults())) {
            BrokerConfig config = TestConfigs.broker(dir, "namesrvAddr", "127.0.0.1:" + started.port());
            TopicConfigTable topics = new TopicConfigTable(dir, Clock.systemUTC(), config.identity(), config.topics());
            table.set(topics);
            RegistrationTarget target = new RegistrationTarget("DefaultCluster", "broker-a", 0, "127.0.0.1:20911",
                    "127.0.0.1:20912", 6);
            try (NameServerRegistrationAgent agent = new NameServerRegistrationAgent(target, config.nameServer(),
                    topics, client, scheduler)) {
                agent.start();
                Await.until("a second registration carrying the early topic", WAIT, () -> received.size() >= 2);
                JsonNode second = Json.mapper().readTree(received.get(1).body())
                        .path("topicConfigSerializeWrapper").path("topicConfigTable");
                assertThat(second.has("EarlyTopic")).isTrue();
            }
        }
    }

    @Test
    void aSlaveLearnsItsMasterAndAReadOnlyBrokerRestrictsPerms() throws Exception {
        try (RemotingServer namesrv = recordingNameServer(Map.of("masterAddr", "127.0.0.1:10911",
                "haServerAddr", "127.0.0.1:10912"));
             RemotingClient client = new RemotingClient(RemotingClientConfig.defaults())) {
            BrokerConfig config = TestConfigs.broker(dir, "namesrvAddr", "127.0.0.1:" + namesrv.port());
            TopicConfigTable topics = new TopicConfigTable(dir, Clock.systemUTC(), config.identity(), config.topics());
            RegistrationTarget slave = new RegistrationTarget("DefaultCluster", "broker-a", 1, "127.0.0.1:30911",
                    "127.0.0.1:30912", 4);
            try (NameServerRegistrationAgent agent = new NameServerRegistrationAgent(slave, config.nameServer(),
                    topics, client, scheduler)) {
                Map<String, Integer> codes = agent.registerAll().get(10, TimeUnit.SECONDS);
                assertThat(codes).containsValue(ResponseCode.SUCCESS);
                assertThat(agent.masterAddr()).contains("127.0.0.1:10911");
                assertThat(agent.masterHaAddr()).contains("127.0.0.1:10912");
                JsonNode table = Json.mapper().readTree(received.get(0).body())
                        .path("topicConfigSerializeWrapper").path("topicConfigTable");
                assertThat(table.path("TBW102").path("perm").asInt()).isEqualTo(4);
            }
        }
    }

    @Test
    void reportsAnUnreachableNameServerWithoutThrowing() throws Exception {
        try (RemotingClient client = new RemotingClient(RemotingClientConfig.defaults())) {
            BrokerConfig config = TestConfigs.broker(dir, "namesrvAddr", "127.0.0.1:1");
            TopicConfigTable topics = new TopicConfigTable(dir, Clock.systemUTC(), config.identity(), config.topics());
            try (NameServerRegistrationAgent agent = new NameServerRegistrationAgent(new RegistrationTarget("c", "b", 0,
                    "127.0.0.1:1", "127.0.0.1:2", 6), config.nameServer(), topics, client, scheduler)) {
                assertThat(agent.registerAll().get(10, TimeUnit.SECONDS)).containsEntry("127.0.0.1:1", -1);
            }
        }
    }
}
