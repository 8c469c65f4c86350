package org.modmq.broker.slave;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.modmq.broker.BrokerServer;
import org.modmq.broker.config.BrokerConfig;
import org.modmq.broker.config.NameServerConfig;
import org.modmq.broker.metadata.BrokerMetadata;
import org.modmq.broker.metadata.SubscriptionGroupConfig;
import org.modmq.broker.processor.BrokerAdminProcessor;
import org.modmq.broker.processor.GroupAdminProcessor;
import org.modmq.broker.processor.TopicAdminProcessor;
import org.modmq.broker.client.ConsumerGroupRegistry;
import org.modmq.broker.client.ProducerRegistry;
import org.modmq.broker.registration.NameServerRegistrationAgent;
import org.modmq.broker.registration.RegistrationTarget;
import org.modmq.broker.runtime.MetadataOnlyStoreBinding;
import org.modmq.broker.testing.Await;
import org.modmq.broker.testing.TestConfigs;
import org.modmq.namesrv.NamesrvConfig;
import org.modmq.namesrv.NamesrvServer;
import org.modmq.remoting.netty.RemotingClient;
import org.modmq.remoting.netty.RemotingClientConfig;
import org.modmq.remoting.netty.RemotingServer;
import org.modmq.remoting.netty.RemotingServerConfig;
import org.modmq.remoting.netty.RequestProcessor;
import org.modmq.remoting.protocol.RemotingCommand;
import org.modmq.remoting.protocol.RequestCode;
import org.modmq.remoting.protocol.ResponseCode;
import org.modmq.remoting.protocol.body.DataVersion;

@Tag("integration")
@Timeout(60)
class SlaveMetadataSyncAgentTest {

    private static final Duration WAIT = Duration.ofSeconds(10);
    private static final SlaveSyncSettings FAST = new SlaveSyncSettings(Duration.ZERO, Duration.ofMillis(100),
            Duration.ofSeconds(2));

    @TempDir
    Path dir;

    private BrokerConfig slaveConfig() {
        return TestConfigs.broker(dir.resolve("slave"), "brokerRole", "SLAVE", "brokerId", "1");
    }

    private static RemotingCommand call(RemotingClient client, String addr, RemotingCommand request) {
        RemotingCommand response = client.invoke(addr, request, WAIT).join();
        assertThat(response.code()).as(response.remark()).isEqualTo(ResponseCode.SUCCESS);
        return response;
    }

    @Test
    void mirrorsTopicsGroupsAndOffsetsOfARealMasterWithinThePeriod() {
        BrokerConfig slaveConfig = slaveConfig();
        assertThat(SlaveMetadataSyncAgent.appliesTo(slaveConfig.identity())).isTrue();
        assertThat(SlaveMetadataSyncAgent.appliesTo(TestConfigs.broker(dir.resolve("m")).identity())).isFalse();
        BrokerMetadata slave = BrokerMetadata.open(slaveConfig, Clock.systemUTC());
        try (BrokerServer master = new BrokerServer(TestConfigs.broker(dir.resolve("master")), Clock.systemUTC())
                .start();
             RemotingClient client = new RemotingClient(RemotingClientConfig.defaults())) {
            String addr = master.brokerAddr();
            call(client, addr, RemotingCommand.request(RequestCode.UPDATE_AND_CREATE_TOPIC)
                    .putExtField("topic", "SyncTopic").putExtField("readQueueNums", 2).putExtField("writeQueueNums", 2)
                    .putExtField("perm", 6));
            call(client, addr, RemotingCommand.request(RequestCode.UPDATE_AND_CREATE_SUBSCRIPTIONGROUP)
                    .withBody("{\"groupName\":\"sync_cg\",\"retryMaxTimes\":3}".getBytes(StandardCharsets.UTF_8)));
            client.invokeOneway(addr, RemotingCommand.request(RequestCode.UPDATE_CONSUMER_OFFSET)
                    .putExtField("consumerGroup", "sync_cg").putExtField("topic", "SyncTopic")
                    .putExtField("queueId", 1).putExtField("commitOffset", 42)).join();

            try (SlaveMetadataSyncAgent agent = new SlaveMetadataSyncAgent(slave, client, () -> Optional.of(addr),
                    FAST)) {
                agent.start();
                Await.until("topic, group and offset on the slave", WAIT,
                        () -> slave.topics().get("SyncTopic").isPresent()
                                && slave.subscriptionGroups().get("sync_cg").map(SubscriptionGroupConfig::retryMaxTimes)
                                        .orElse(0) == 3
                                && slave.consumerOffsets().query("sync_cg", "SyncTopic", 1).orElse(-1) == 42);
                assertThat(slave.topics().get("SyncTopic").orElseThrow().writeQueueNums()).isEqualTo(2);

                call(client, addr, RemotingCommand.request(RequestCode.DELETE_TOPIC_IN_BROKER)
                        .putExtField("topic", "SyncTopic"));
                call(client, addr, RemotingCommand.request(RequestCode.DELETE_SUBSCRIPTIONGROUP)
                        .putExtField("groupName", "sync_cg"));
                Await.until("deletions on the slave", WAIT, () -> slave.topics().get("SyncTopic").isEmpty()
                        && slave.subscriptionGroups().get("sync_cg").isEmpty());
                // Offsets merge: the slave keeps what the master no longer lists.
                assertThat(slave.consumerOffsets().query("sync_cg", "SyncTopic", 1)).hasValue(42);
            }
        }
        slave.persist();
        BrokerMetadata reopened = BrokerMetadata.open(slaveConfig, Clock.systemUTC());
        assertThat(reopened.topics().get("SyncTopic")).isEmpty();
        assertThat(reopened.consumerOffsets().query("sync_cg", "SyncTopic", 1)).hasValue(42);
    }

    @Test
    void copiesDelayOffsetsAndSurvivesAnUnreachableMaster() throws Exception {
        BrokerConfig masterConfig = TestConfigs.broker(dir.resolve("fake-master"));
        BrokerMetadata masterTables = BrokerMetadata.open(masterConfig, Clock.systemUTC());
        masterTables.delayOffsets().update(3, 17);
        masterTables.delayOffsets().update(5, 2);
        BrokerMetadata slave = BrokerMetadata.open(slaveConfig(), Clock.systemUTC());
        ExecutorService executor = Executors.newFixedThreadPool(2);
        RemotingServer server = new RemotingServer(RemotingServerConfig.of("127.0.0.1", 0));
        register(server, executor, masterConfig, masterTables);
        try (RemotingClient client = new RemotingClient(RemotingClientConfig.defaults())) {
            server.start();
            String addr = "127.0.0.1:" + server.port();
            SlaveMetadataSyncAgent agent = new SlaveMetadataSyncAgent(slave, client, () -> Optional.of(addr), FAST);
            try (agent) {
                assertThat(agent.syncOnce()).isTrue();
                assertThat(slave.delayOffsets().get(3)).hasValue(17);
                assertThat(slave.delayOffsets().get(5)).hasValue(2);
                masterTables.delayOffsets().update(3, 20);
                assertThat(agent.syncOnce()).isTrue();
                assertThat(slave.delayOffsets().get(3)).hasValue(20);

                assertThat(agent.lastProblem()).isNull();
                server.close();
                assertThat(agent.syncOnce()).isFalse();
                String problem = agent.lastProblem();
                assertThat(problem).startsWith("GET_ALL_TOPIC_CONFIG@" + addr);
                // The same failure again is the same state, so it is not logged again.
                assertThat(agent.syncOnce()).isFalse();
                assertThat(agent.lastProblem()).isEqualTo(problem);
                assertThat(slave.delayOffsets().get(3)).hasValue(20);
            }
            try (SlaveMetadataSyncAgent noMaster = new SlaveMetadataSyncAgent(slave, client, Optional::empty, FAST)) {
                assertThat(noMaster.syncOnce()).isFalse();
                assertThat(noMaster.lastProblem()).isEqualTo("no-master");
            }
        } finally {
            server.close();
            executor.shutdownNow();
        }
    }

    @Test
    void learnsTheMastersAddressFromTheNameServer() {
        BrokerMetadata slave = BrokerMetadata.open(slaveConfig(), Clock.systemUTC());
        ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor();
        try (NamesrvServer namesrv = new NamesrvServer(NamesrvConfig.defaults().withListenPort(0)).start();
             RemotingClient client = new RemotingClient(RemotingClientConfig.defaults());
             BrokerServer master = new BrokerServer(TestConfigs.broker(dir.resolve("master"), "namesrvAddr",
                     namesrv.address()), Clock.systemUTC()).start()) {
            call(client, master.brokerAddr(), RemotingCommand.request(RequestCode.UPDATE_AND_CREATE_TOPIC)
                    .putExtField("topic", "ViaNamesrv").putExtField("perm", 6));
            NameServerRegistrationAgent registration = new NameServerRegistrationAgent(new RegistrationTarget(
                    "DefaultCluster", "broker-a", 1, "127.0.0.1:1", "127.0.0.1:2", 6),
                    new NameServerConfig(List.of(namesrv.address()), 30_000, 5_000), slave.topics(), client, scheduler);
            try (registration; SlaveMetadataSyncAgent agent = new SlaveMetadataSyncAgent(slave, client,
                    registration::masterAddr, FAST)) {
                registration.start();
                assertThat(registration.masterAddr()).hasValue(master.brokerAddr());
                agent.start();
                Await.until("topic learned through the name server's master address", WAIT,
                        () -> slave.topics().get("ViaNamesrv").isPresent());
            }
        } finally {
            scheduler.shutdownNow();
        }
    }

    private static void register(RemotingServer server, ExecutorService executor, BrokerConfig config,
                                 BrokerMetadata tables) {
        ProducerRegistry producers = new ProducerRegistry(Clock.systemUTC());
        ConsumerGroupRegistry consumers = new ConsumerGroupRegistry(Clock.systemUTC(), g -> { });
        RequestProcessor admin = RequestProcessor.sync(new BrokerAdminProcessor(config, tables,
                DataVersion.initial(Clock.systemUTC())));
        RequestProcessor topics = RequestProcessor.sync(new TopicAdminProcessor(config.identity(), tables,
                new MetadataOnlyStoreBinding()));
        RequestProcessor groups = RequestProcessor.sync(new GroupAdminProcessor(tables, consumers, producers));
        for (int code : BrokerAdminProcessor.CODES) {
            server.registerProcessor(code, admin, executor);
        }
        for (int code : TopicAdminProcessor.CODES) {
            server.registerProcessor(code, topics, executor);
        }
        for (int code : GroupAdminProcessor.CODES) {
            server.registerProcessor(code, groups, executor);
        }
    }
}
