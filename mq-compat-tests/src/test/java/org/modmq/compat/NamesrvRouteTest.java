package org.modmq.compat;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.rocketmq.client.exception.MQClientException;
import org.apache.rocketmq.common.TopicConfig;
import org.apache.rocketmq.remoting.protocol.RemotingCommand;
import org.apache.rocketmq.remoting.protocol.RequestCode;
import org.apache.rocketmq.remoting.protocol.ResponseCode;
import org.apache.rocketmq.remoting.protocol.body.ClusterInfo;
import org.apache.rocketmq.remoting.protocol.header.namesrv.GetRouteInfoRequestHeader;
import org.apache.rocketmq.remoting.protocol.header.namesrv.RegisterBrokerResponseHeader;
import org.apache.rocketmq.remoting.protocol.route.BrokerData;
import org.apache.rocketmq.remoting.protocol.route.QueueData;
import org.apache.rocketmq.remoting.protocol.route.TopicRouteData;
import org.apache.rocketmq.tools.admin.DefaultMQAdminExt;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.modmq.testkit.process.Await;
import org.modmq.testkit.process.ChildProcess;

/**
 * {@code bin/mqnamesrv} from the distribution, driven by the stock 5.3.3 admin client and by the
 * stock broker-side remoting classes. Every body the name server sends is parsed by the stock
 * client's own (fastjson) parser. The methods run in order: the first sees an empty name server,
 * the later ones build on the registrations before them.
 */
@Tag("integration")
@Timeout(value = 60, unit = TimeUnit.SECONDS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class NamesrvRouteTest {

    private static final String CLUSTER = "CompatCluster";
    private static final StockRegistrar.FakeBroker MASTER = new StockRegistrar.FakeBroker(
            CLUSTER, "broker-a", 0, "127.0.0.1:1911", "127.0.0.1:1912");
    private static final StockRegistrar.FakeBroker SLAVE = new StockRegistrar.FakeBroker(
            CLUSTER, "broker-a", 1, "127.0.0.1:2911", "127.0.0.1:2912");
    private static final List<TopicConfig> TOPICS = List.of(
            StockRegistrar.topic("TopicA", 4, 4, 6),
            StockRegistrar.topic("TopicB", 2, 1, 4));

    @TempDir
    static Path workDir;

    private static ChildProcess namesrv;
    private static StockAdmin admin;
    private static StockRegistrar registrar;

    @BeforeAll
    static void startNamesrv() throws Exception {
        namesrv = Distribution.located().startNamesrv(workDir);
        admin = StockAdmin.start(namesrv.address());
        registrar = new StockRegistrar();
    }

    @AfterAll
    static void stopNamesrv() {
        try (ChildProcess process = namesrv; StockAdmin client = admin; StockRegistrar broker = registrar) {
            // closed in reverse order: registrar, admin, then the process
        }
    }

    @Test
    @Order(1)
    void emptyNameServerHasNoClustersTopicsOrRoutes() throws Exception {
        DefaultMQAdminExt ext = admin.ext();

        ClusterInfo clusters = ext.examineBrokerClusterInfo();
        assertThat(clusters.getBrokerAddrTable()).isEmpty();
        assertThat(clusters.getClusterAddrTable()).isEmpty();
        assertThat(ext.fetchAllTopicList().getTopicList()).isEmpty();
        assertThatThrownBy(() -> ext.examineTopicRouteInfo("TopicA"))
                .isInstanceOfSatisfying(MQClientException.class,
                        e -> assertThat(e.getResponseCode()).isEqualTo(ResponseCode.TOPIC_NOT_EXIST));
    }

    @Test
    @Order(2)
    void registeredMasterShowsInRoutesClusterInfoAndTopicLists() throws Exception {
        RemotingCommand response = registrar.register(namesrv.address(), MASTER, TOPICS, 1);
        assertThat(response.getCode()).as(response.getRemark()).isEqualTo(ResponseCode.SUCCESS);
        DefaultMQAdminExt ext = admin.ext();

        TopicRouteData routeA = ext.examineTopicRouteInfo("TopicA");
        assertThat(routeA.getQueueDatas()).singleElement().satisfies(queue -> assertQueue(queue, "broker-a", 4, 4, 6));
        assertThat(routeA.getBrokerDatas()).singleElement()
                .satisfies(broker -> assertBroker(broker, Map.of(0L, MASTER.brokerAddr())));
        TopicRouteData routeB = ext.examineTopicRouteInfo("TopicB");
        assertThat(routeB.getQueueDatas()).singleElement().satisfies(queue -> assertQueue(queue, "broker-a", 2, 1, 4));

        ClusterInfo clusters = ext.examineBrokerClusterInfo();
        assertThat(clusters.getClusterAddrTable()).isEqualTo(Map.of(CLUSTER, Set.of("broker-a")));
        assertThat(clusters.getBrokerAddrTable()).containsOnlyKeys("broker-a");
        assertBroker(clusters.getBrokerAddrTable().get("broker-a"), Map.of(0L, MASTER.brokerAddr()));

        assertThat(ext.fetchAllTopicList().getTopicList()).containsExactlyInAnyOrder("TopicA", "TopicB");
        assertThat(ext.fetchTopicsByCLuster(CLUSTER).getTopicList()).containsExactlyInAnyOrder("TopicA", "TopicB");
        assertThatThrownBy(() -> ext.examineTopicRouteInfo("NoSuchTopic"))
                .isInstanceOfSatisfying(MQClientException.class,
                        e -> assertThat(e.getResponseCode()).isEqualTo(ResponseCode.TOPIC_NOT_EXIST));
    }

    @Test
    @Order(3)
    void stockParserReadsRoutesInBothKeyQuotingStyles() throws Exception {
        for (int version : new int[] {0, 479}) {
            GetRouteInfoRequestHeader header = new GetRouteInfoRequestHeader();
            header.setTopic("TopicA");
            RemotingCommand request = RemotingCommand.createRequestCommand(RequestCode.GET_ROUTEINFO_BY_TOPIC, header);
            request.setVersion(version);
            RemotingCommand response = registrar.invoke(namesrv.address(), request);
            assertThat(response.getCode()).as("version %d: %s", version, response.getRemark()).isEqualTo(ResponseCode.SUCCESS);

            TopicRouteData route = TopicRouteData.decode(response.getBody(), TopicRouteData.class);
            assertThat(route.getQueueDatas()).as("version %d", version).singleElement()
                    .satisfies(queue -> assertQueue(queue, "broker-a", 4, 4, 6));
            assertThat(route.getBrokerDatas()).as("version %d", version).singleElement()
                    .satisfies(broker -> assertBroker(broker, Map.of(0L, MASTER.brokerAddr())));

            RemotingCommand clusterRequest = RemotingCommand.createRequestCommand(RequestCode.GET_BROKER_CLUSTER_INFO, null);
            clusterRequest.setVersion(version);
            RemotingCommand clusterResponse = registrar.invoke(namesrv.address(), clusterRequest);
            ClusterInfo clusters = ClusterInfo.decode(clusterResponse.getBody(), ClusterInfo.class);
            assertBroker(clusters.getBrokerAddrTable().get("broker-a"), Map.of(0L, MASTER.brokerAddr()));
        }
    }

    @Test
    @Order(4)
    void slaveRegistrationLearnsItsMasterAndJoinsTheRoute() throws Exception {
        RemotingCommand response = registrar.register(namesrv.address(), SLAVE, TOPICS, 1);
        assertThat(response.getCode()).as(response.getRemark()).isEqualTo(ResponseCode.SUCCESS);
        RegisterBrokerResponseHeader header =
                (RegisterBrokerResponseHeader) response.decodeCommandCustomHeader(RegisterBrokerResponseHeader.class);
        assertThat(header.getMasterAddr()).isEqualTo(MASTER.brokerAddr());
        assertThat(header.getHaServerAddr()).isEqualTo(MASTER.haServerAddr());

        TopicRouteData route = admin.ext().examineTopicRouteInfo("TopicA");
        assertThat(route.getQueueDatas()).singleElement().satisfies(queue -> assertQueue(queue, "broker-a", 4, 4, 6));
        assertThat(route.getBrokerDatas()).singleElement().satisfies(broker -> assertBroker(broker,
                Map.of(0L, MASTER.brokerAddr(), 1L, SLAVE.brokerAddr())));
    }

    @Test
    @Order(5)
    void mqadminPrintsTopicListAndRoute() {
        // Each stock mqadmin run spends seconds in its client's shutdown; run both at once.
        CompletableFuture<MqAdmin.Result> topicList = CompletableFuture.supplyAsync(
                () -> MqAdmin.run(workDir, "topicList", "-n", namesrv.address()));
        MqAdmin.Result route = MqAdmin.run(workDir, "topicRoute", "-t", "TopicB", "-n", namesrv.address());
        MqAdmin.Result topics = topicList.join();

        assertThat(topics.exitStatus()).as(topics.output()).isZero();
        assertThat(topics.lines()).as(topics.output()).containsExactlyInAnyOrder("TopicA", "TopicB");
        assertThat(route.exitStatus()).as(route.output()).isZero();
        TopicRouteData printed = TopicRouteData.fromJson(route.output().substring(route.output().indexOf('{')),
                TopicRouteData.class);
        assertThat(printed.getQueueDatas()).singleElement().satisfies(queue -> assertQueue(queue, "broker-a", 2, 1, 4));
        assertThat(printed.getBrokerDatas()).singleElement().satisfies(broker -> assertBroker(broker,
                Map.of(0L, MASTER.brokerAddr(), 1L, SLAVE.brokerAddr())));
    }

    @Test
    @Order(6)
    void unregisteringTheWholeBrokerSetRemovesItsTopics() throws Exception {
        for (StockRegistrar.FakeBroker broker : List.of(SLAVE, MASTER)) {
            RemotingCommand response = registrar.unregister(namesrv.address(), broker);
            assertThat(response.getCode()).as(response.getRemark()).isEqualTo(ResponseCode.SUCCESS);
        }
        DefaultMQAdminExt ext = admin.ext();
        // The stock name server queues unregistrations; so may ours.
        Await.until("broker-a to leave the cluster info", Duration.ofSeconds(10),
                () -> brokerAddrTable(ext).isEmpty());

        assertThat(ext.examineBrokerClusterInfo().getClusterAddrTable()).isEmpty();
        assertThat(ext.fetchAllTopicList().getTopicList()).isEmpty();
        assertThatThrownBy(() -> ext.examineTopicRouteInfo("TopicA"))
                .isInstanceOfSatisfying(MQClientException.class,
                        e -> assertThat(e.getResponseCode()).isEqualTo(ResponseCode.TOPIC_NOT_EXIST));
    }

    private static Map<String, BrokerData> brokerAddrTable(DefaultMQAdminExt ext) {
        try {
            return ext.examineBrokerClusterInfo().getBrokerAddrTable();
        } catch (Exception e) {
            throw new IllegalStateException("GET_BROKER_CLUSTER_INFO failed", e);
        }
    }

    static void assertQueue(QueueData queue, String brokerName, int read, int write, int perm) {
        assertThat(queue.getBrokerName()).isEqualTo(brokerName);
        assertThat(queue.getReadQueueNums()).isEqualTo(read);
        assertThat(queue.getWriteQueueNums()).isEqualTo(write);
        assertThat(queue.getPerm()).isEqualTo(perm);
        assertThat(queue.getTopicSysFlag()).isZero();
    }

    static void assertBroker(BrokerData broker, Map<Long, String> addrs) {
        assertThat(broker.getCluster()).isEqualTo(CLUSTER);
        assertThat(broker.getBrokerName()).isEqualTo("broker-a");
        assertThat(broker.getBrokerAddrs()).isEqualTo(new HashMap<>(addrs));
    }
}
