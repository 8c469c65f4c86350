package org.modmq.namesrv;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.zip.CRC32;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.modmq.namesrv.body.ClusterInfo;
import org.modmq.namesrv.body.TopicList;
import org.modmq.namesrv.body.TopicRouteData;
import org.modmq.remoting.netty.RemotingClient;
import org.modmq.remoting.netty.RemotingClientConfig;
import org.modmq.remoting.protocol.Json;
import org.modmq.remoting.protocol.RemotingCommand;
import org.modmq.remoting.protocol.RequestCode;
import org.modmq.remoting.protocol.ResponseCode;
import org.modmq.remoting.protocol.body.DataVersion;

@Tag("integration")
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class NamesrvServerTest {

    static final String MASTER = "127.0.0.1:20911";
    static final String SLAVE = "127.0.0.1:21911";

    /** A registration body shaped like the one a stock 5.3.3 broker sends (docs/protocol.md section 3.2). */
    static String fullBody(long counter) {
        return "{\"filterServerList\":[],\"topicConfigSerializeWrapper\":{\"dataVersion\":{\"counter\":" + counter
                + ",\"stateVersion\":0,\"timestamp\":1796009342043},\"mappingDataVersion\":{\"counter\":0,"
                + "\"stateVersion\":0,\"timestamp\":1796009340000},\"topicConfigTable\":{"
                + topicJson("TopicA", 4, 6) + "," + topicJson("TBW102", 8, 7) + "," + topicJson("DefaultCluster", 16, 7)
                + "},\"topicQueueMappingDetailMap\":{},\"topicQueueMappingInfoMap\":{}}}";
    }

    static String singleTopicBody(String topic) {
        return "{\"filterServerList\":[],\"topicConfigSerializeWrapper\":{\"dataVersion\":{\"counter\":9,"
                + "\"stateVersion\":0,\"timestamp\":1796009349999},\"topicConfigTable\":{" + topicJson(topic, 4, 6)
                + "}}}";
    }

    static String topicJson(String name, int queues, int perm) {
        return "\"" + name + "\":{\"attributes\":{},\"order\":false,\"perm\":" + perm + ",\"readQueueNums\":" + queues
                + ",\"topicFilterType\":\"SINGLE_TAG\",\"topicName\":\"" + name + "\",\"topicSysFlag\":0,"
                + "\"writeQueueNums\":" + queues + "}";
    }

    static int crc(byte[] body) {
        CRC32 crc = new CRC32();
        crc.update(body);
        return (int) (crc.getValue() & 0x7FFFFFFF);
    }

    static RemotingCommand registration(String addr, long id, String body) {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        Map<String, String> headers = new LinkedHashMap<>();
        headers.put("brokerId", Long.toString(id));
        headers.put("bodyCrc32", Integer.toString(crc(bytes)));
        headers.put("clusterName", "DefaultCluster");
        headers.put("brokerAddr", addr);
        headers.put("enableActingMaster", "false");
        headers.put("haServerAddr", addr.replace("911", "912"));
        headers.put("compressed", "false");
        headers.put("brokerName", "broker-a");
        return RemotingCommand.request(RequestCode.REGISTER_BROKER, headers).withBody(bytes);
    }

    private NamesrvServer namesrv;
    private final RemotingClient masterClient = new RemotingClient(RemotingClientConfig.defaults());
    private final RemotingClient slaveClient = new RemotingClient(RemotingClientConfig.defaults());

    private NamesrvServer start(Map<String, String> settings) {
        Map<String, String> all = new LinkedHashMap<>(settings);
        all.put("listenPort", "0");
        namesrv = new NamesrvServer(NamesrvConfig.parse(all, warning -> { })).start();
        return namesrv;
    }

    @AfterEach
    void tearDown() {
        masterClient.close();
        slaveClient.close();
        if (namesrv != null) {
            namesrv.close();
        }
    }

    private RemotingCommand call(RemotingClient client, RemotingCommand request) throws Exception {
        return client.invoke(namesrv.address(), request, Duration.ofSeconds(5)).get(10, TimeUnit.SECONDS);
    }

    private RemotingCommand call(RemotingCommand request) throws Exception {
        return call(masterClient, request);
    }

    private RemotingCommand route(String topic, int version) throws Exception {
        return call(RemotingCommand.request(RequestCode.GET_ROUTEINFO_BY_TOPIC, Map.of("topic", topic))
                .setVersion(version));
    }

    private ClusterInfo clusterInfo() throws Exception {
        RemotingCommand response = call(RemotingCommand.request(RequestCode.GET_BROKER_CLUSTER_INFO));
        assertThat(response.code()).isEqualTo(ResponseCode.SUCCESS);
        return Json.decode(response.body(), ClusterInfo.class);
    }

    static void await(String what, BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(15);
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out waiting for " + what);
            }
            Thread.sleep(20);
        }
    }

    /** Asks over the slave's connection: expiry closes the expired broker's connection. */
    private boolean routeGone(String topic) {
        try {
            return call(slaveClient, RemotingCommand.request(RequestCode.GET_ROUTEINFO_BY_TOPIC, Map.of("topic", topic)))
                    .code() == ResponseCode.TOPIC_NOT_EXIST;
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    @Test
    void registersMasterAndSlaveAndServesRoutes() throws Exception {
        start(Map.of());
        RemotingCommand master = call(masterClient, registration(MASTER, 0, fullBody(5)));
        assertThat(master.code()).isEqualTo(ResponseCode.SUCCESS);
        assertThat(master.extField("masterAddr")).isNull();
        assertThat(master.body()).isEmpty();

        RemotingCommand slave = call(slaveClient, registration(SLAVE, 1, fullBody(5)));
        assertThat(slave.code()).isEqualTo(ResponseCode.SUCCESS);
        assertThat(slave.extField("masterAddr")).isEqualTo(MASTER);
        assertThat(slave.extField("haServerAddr")).isEqualTo("127.0.0.1:20912");

        RemotingCommand route = route("TopicA", 479);
        assertThat(route.code()).isEqualTo(ResponseCode.SUCCESS);
        String json = new String(route.body(), StandardCharsets.UTF_8);
        assertThat(json).isEqualTo("{\"brokerDatas\":[{\"brokerAddrs\":{\"0\":\"" + MASTER + "\",\"1\":\"" + SLAVE
                + "\"},\"brokerName\":\"broker-a\",\"cluster\":\"DefaultCluster\",\"enableActingMaster\":false}],"
                + "\"filterServerTable\":{},\"queueDatas\":[{\"brokerName\":\"broker-a\",\"perm\":6,"
                + "\"readQueueNums\":4,\"topicSysFlag\":0,\"writeQueueNums\":4}]}");
        String legacy = new String(route("TopicA", 0).body(), StandardCharsets.UTF_8);
        assertThat(legacy).contains("\"brokerAddrs\":{0:\"" + MASTER + "\",1:\"" + SLAVE + "\"}");

        ClusterInfo info = clusterInfo();
        assertThat(info.clusterAddrTable()).containsEntry("DefaultCluster", java.util.Set.of("broker-a"));
        assertThat(info.brokerAddrTable().get("broker-a").brokerAddrs()).containsEntry(0L, MASTER).containsEntry(1L, SLAVE);

        TopicList all = Json.decode(call(RemotingCommand.request(
                RequestCode.GET_ALL_TOPIC_LIST_FROM_NAMESERVER)).body(), TopicList.class);
        assertThat(all.topicList()).containsExactlyInAnyOrder("TopicA", "TBW102", "DefaultCluster");
        TopicList ofCluster = Json.decode(call(RemotingCommand.request(RequestCode.GET_TOPICS_BY_CLUSTER,
                Map.of("cluster", "DefaultCluster"))).body(), TopicList.class);
        assertThat(ofCluster.topicList()).containsExactlyInAnyOrder("TopicA", "TBW102", "DefaultCluster");
        TopicList system = Json.decode(call(RemotingCommand.request(
                RequestCode.GET_SYSTEM_TOPIC_LIST_FROM_NS)).body(), TopicList.class);
        assertThat(system.topicList()).containsExactlyInAnyOrder("DefaultCluster", "broker-a");
        TopicList unit = Json.decode(call(RemotingCommand.request(RequestCode.GET_UNIT_TOPIC_LIST)).body(),
                TopicList.class);
        assertThat(unit.topicList()).isEmpty();
    }

    @Test
    void acceptsTheModernBodyFromASenderThatDidNotSetItsVersion() throws Exception {
        start(Map.of());
        assertThat(call(registration(MASTER, 0, fullBody(1)).setVersion(0)).code()).isEqualTo(ResponseCode.SUCCESS);
        assertThat(route("TopicA", 479).code()).isEqualTo(ResponseCode.SUCCESS);
    }

    @Test
    void unknownTopicIsTopicNotExist() throws Exception {
        start(Map.of());
        RemotingCommand response = route("NoSuchTopic", 479);
        assertThat(response.code()).isEqualTo(ResponseCode.TOPIC_NOT_EXIST);
        assertThat(response.remark()).startsWith("No topic route info in name server for the topic: NoSuchTopic");
    }

    @Test
    void unregisterRemovesTheBroker() throws Exception {
        start(Map.of());
        call(registration(MASTER, 0, fullBody(1)));
        RemotingCommand response = call(RemotingCommand.request(RequestCode.UNREGISTER_BROKER, Map.of(
                "brokerName", "broker-a", "brokerAddr", MASTER, "clusterName", "DefaultCluster", "brokerId", "0")));
        assertThat(response.code()).isEqualTo(ResponseCode.SUCCESS);
        assertThat(route("TopicA", 479).code()).isEqualTo(ResponseCode.TOPIC_NOT_EXIST);
        assertThat(clusterInfo().brokerAddrTable()).isEmpty();
    }

    @Test
    void silentBrokerExpires() throws Exception {
        start(Map.of("brokerChannelExpiredTime", "300", "scanNotActiveBrokerInterval", "100"));
        call(registration(MASTER, 0, fullBody(1)));
        assertThat(route("TopicA", 479).code()).isEqualTo(ResponseCode.SUCCESS);
        await("the silent broker to expire", () -> routeGone("TopicA"));
        assertThat(namesrv.liveBrokerCount()).isZero();
    }

    @Test
    void closingTheBrokerConnectionRemovesIt() throws Exception {
        start(Map.of());
        call(masterClient, registration(MASTER, 0, fullBody(1)));
        call(slaveClient, registration(SLAVE, 1, fullBody(1)));
        masterClient.closeChannel(namesrv.address());
        await("the master to be removed", () -> {
            try {
                return !clusterInfo().brokerAddrTable().get("broker-a").brokerAddrs().containsKey(0L);
            } catch (Exception e) {
                throw new AssertionError(e);
            }
        });
        assertThat(clusterInfo().brokerAddrTable().get("broker-a").brokerAddrs()).containsOnlyKeys(1L);
        assertThat(route("TopicA", 479).code()).isEqualTo(ResponseCode.SUCCESS);
    }

    @Test
    void crcMismatchIsRefusedAndChangesNothing() throws Exception {
        start(Map.of());
        RemotingCommand bad = registration(MASTER, 0, fullBody(1));
        bad.putExtField("bodyCrc32", "12345");
        RemotingCommand response = call(bad);
        assertThat(response.code()).isEqualTo(ResponseCode.SYSTEM_ERROR);
        assertThat(response.remark()).isEqualTo("crc32 not match");
        assertThat(clusterInfo().brokerAddrTable()).isEmpty();
    }

    @Test
    void missingHeaderFieldIsNamedAndChangesNothing() throws Exception {
        start(Map.of());
        RemotingCommand bad = registration(MASTER, 0, fullBody(1));
        bad.putExtField("brokerAddr", null);
        RemotingCommand response = call(bad);
        assertThat(response.code()).isEqualTo(ResponseCode.SYSTEM_ERROR);
        assertThat(response.remark()).contains("brokerAddr");
        assertThat(clusterInfo().brokerAddrTable()).isEmpty();
        assertThat(clusterInfo().clusterAddrTable()).isEmpty();
    }

    @Test
    void malformedBodyIsRefused() throws Exception {
        start(Map.of());
        RemotingCommand response = call(registration(MASTER, 0, "{\"topicConfigSerializeWrapper\":["));
        assertThat(response.code()).isEqualTo(ResponseCode.SYSTEM_ERROR);
        assertThat(response.remark()).contains("RegisterBrokerBody");
        assertThat(clusterInfo().brokerAddrTable()).isEmpty();
    }

    @Test
    void singleTopicIncrementBeforeFullRegistrationFails() throws Exception {
        start(Map.of());
        RemotingCommand response = call(registration(MASTER, 0, singleTopicBody("TopicX")));
        assertThat(response.code()).isEqualTo(ResponseCode.SYSTEM_ERROR);
        assertThat(response.remark()).isEqualTo("register broker failed");
        assertThat(clusterInfo().brokerAddrTable()).isEmpty();

        call(registration(MASTER, 0, fullBody(1)));
        assertThat(call(registration(MASTER, 0, singleTopicBody("TopicX"))).code()).isEqualTo(ResponseCode.SUCCESS);
        assertThat(route("TopicX", 479).code()).isEqualTo(ResponseCode.SUCCESS);
    }

    @Test
    void brokerSideCallsRefreshCompareAndAdminister() throws Exception {
        start(Map.of());
        call(registration(MASTER, 0, fullBody(5)));
        Map<String, String> id = Map.of("brokerName", "broker-a", "brokerAddr", MASTER, "clusterName", "DefaultCluster",
                "brokerId", "0");
        RemotingCommand same = call(RemotingCommand.request(RequestCode.QUERY_DATA_VERSION, id)
                .withBody(Json.encode(new DataVersion(5, 0, 1796009342043L))));
        assertThat(same.extField("changed")).isEqualTo("false");
        assertThat(Json.decode(same.body(), DataVersion.class)).isEqualTo(new DataVersion(5, 0, 1796009342043L));
        RemotingCommand differs = call(RemotingCommand.request(RequestCode.QUERY_DATA_VERSION, id)
                .withBody(Json.encode(new DataVersion(6, 0, 1))));
        assertThat(differs.extField("changed")).isEqualTo("true");
        assertThat(call(RemotingCommand.request(RequestCode.BROKER_HEARTBEAT, id)).code()).isEqualTo(ResponseCode.SUCCESS);

        String group = new String(call(RemotingCommand.request(RequestCode.GET_BROKER_MEMBER_GROUP,
                Map.of("clusterName", "DefaultCluster", "brokerName", "broker-a"))).body(), StandardCharsets.UTF_8);
        assertThat(group).isEqualTo("{\"brokerMemberGroup\":{\"brokerAddrs\":{\"0\":\"" + MASTER
                + "\"},\"brokerName\":\"broker-a\",\"cluster\":\"DefaultCluster\"}}");

        RemotingCommand wipe = call(RemotingCommand.request(RequestCode.WIPE_WRITE_PERM_OF_BROKER,
                Map.of("brokerName", "broker-a")));
        assertThat(wipe.extField("wipeTopicCount")).isEqualTo("3");
        assertThat(Json.decode(route("TopicA", 479).body(), TopicRouteData.class).queueDatas().get(0).perm())
                .isEqualTo(4);
        RemotingCommand add = call(RemotingCommand.request(RequestCode.ADD_WRITE_PERM_OF_BROKER,
                Map.of("brokerName", "broker-a")));
        assertThat(add.extField("addTopicCount")).isEqualTo("3");

        call(RemotingCommand.request(RequestCode.DELETE_TOPIC_IN_NAMESRV, Map.of("topic", "TopicA")));
        assertThat(route("TopicA", 479).code()).isEqualTo(ResponseCode.TOPIC_NOT_EXIST);
        RemotingCommand registerTopic = call(RemotingCommand.request(RequestCode.REGISTER_TOPIC_IN_NAMESRV,
                Map.of("topic", "TopicR")).withBody(("{\"queueDatas\":[{\"brokerName\":\"broker-a\",\"perm\":6,"
                + "\"readQueueNums\":2,\"topicSysFlag\":0,\"writeQueueNums\":2}]}").getBytes(StandardCharsets.UTF_8)));
        assertThat(registerTopic.code()).isEqualTo(ResponseCode.SUCCESS);
        assertThat(route("TopicR", 479).code()).isEqualTo(ResponseCode.SUCCESS);
    }

    @Test
    void kvConfigPutGetListDelete() throws Exception {
        start(Map.of());
        Map<String, String> key = Map.of("namespace", "ns1", "key", "k1");
        assertThat(call(RemotingCommand.request(RequestCode.GET_KV_CONFIG, key)).code())
                .isEqualTo(ResponseCode.QUERY_NOT_FOUND);
        assertThat(call(RemotingCommand.request(RequestCode.PUT_KV_CONFIG,
                Map.of("namespace", "ns1", "key", "k1", "value", "v1"))).code()).isEqualTo(ResponseCode.SUCCESS);
        assertThat(call(RemotingCommand.request(RequestCode.GET_KV_CONFIG, key)).extField("value")).isEqualTo("v1");
        assertThat(new String(call(RemotingCommand.request(RequestCode.GET_KVLIST_BY_NAMESPACE,
                Map.of("namespace", "ns1"))).body(), StandardCharsets.UTF_8)).isEqualTo("{\"table\":{\"k1\":\"v1\"}}");
        assertThat(call(RemotingCommand.request(RequestCode.DELETE_KV_CONFIG, key)).code()).isEqualTo(ResponseCode.SUCCESS);
        assertThat(call(RemotingCommand.request(RequestCode.GET_KV_CONFIG, key)).code())
                .isEqualTo(ResponseCode.QUERY_NOT_FOUND);
        assertThat(call(RemotingCommand.request(RequestCode.GET_KVLIST_BY_NAMESPACE, Map.of("namespace", "ns1"))).code())
                .isEqualTo(ResponseCode.QUERY_NOT_FOUND);
    }

    @Test
    void orderTopicConfigReachesRoutesAndRegisteringBrokers() throws Exception {
        start(Map.of("orderMessageEnable", "true"));
        call(RemotingCommand.request(RequestCode.PUT_KV_CONFIG,
                Map.of("namespace", "ORDER_TOPIC_CONFIG", "key", "TopicA", "value", "broker-a:4")));
        RemotingCommand registered = call(registration(MASTER, 0, fullBody(1)));
        assertThat(new String(registered.body(), StandardCharsets.UTF_8)).isEqualTo("{\"table\":{\"TopicA\":\"broker-a:4\"}}");
        assertThat(Json.decode(route("TopicA", 479).body(), TopicRouteData.class).orderTopicConf())
                .isEqualTo("broker-a:4");
    }

    @Test
    void namesrvConfigCanBeReadAndPartlyUpdated() throws Exception {
        start(Map.of());
        String text = new String(call(RemotingCommand.request(RequestCode.GET_NAMESRV_CONFIG)).body(),
                StandardCharsets.UTF_8);
        assertThat(text).contains("enableAllTopicList=true\n").contains("listenPort=0\n");

        RemotingCommand refused = call(RemotingCommand.request(RequestCode.UPDATE_NAMESRV_CONFIG)
                .withBody("enableAllTopicList=false\nlistenPort=1\n".getBytes(StandardCharsets.UTF_8)));
        assertThat(refused.code()).isEqualTo(ResponseCode.NO_PERMISSION);
        assertThat(call(RemotingCommand.request(RequestCode.GET_ALL_TOPIC_LIST_FROM_NAMESERVER)).code())
                .isEqualTo(ResponseCode.SUCCESS);

        assertThat(call(RemotingCommand.request(RequestCode.UPDATE_NAMESRV_CONFIG)
                .withBody("enableAllTopicList=false\n".getBytes(StandardCharsets.UTF_8))).code())
                .isEqualTo(ResponseCode.SUCCESS);
        RemotingCommand disabled = call(RemotingCommand.request(RequestCode.GET_ALL_TOPIC_LIST_FROM_NAMESERVER));
        assertThat(disabled.code()).isEqualTo(ResponseCode.SYSTEM_ERROR);
        assertThat(disabled.remark()).isEqualTo("disable");
    }
}
