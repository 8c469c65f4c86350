package org.modmq.namesrv.body;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.modmq.remoting.protocol.Json;
import org.modmq.remoting.protocol.JsonBodyException;
import org.modmq.remoting.protocol.body.DataVersion;
import org.modmq.remoting.protocol.body.RegisterBrokerBody;
import org.modmq.remoting.protocol.body.TopicConfig;

class BodiesJsonTest {

    private static final BrokerData BROKER_A = new BrokerData(
            new TreeMap<>(Map.of(0L, "10.0.0.1:10911", 1L, "10.0.0.2:10911")), "broker-a", "DefaultCluster",
            false, null);
    private static final QueueData QUEUES_A = new QueueData("broker-a", 6, 4, 0, 4);

    private static String json(Object value) {
        return Json.encodeToString(value);
    }

    private static JsonNode tree(String json) {
        return Json.decode(json, JsonNode.class);
    }

    @Test
    void refusesTheJsonNullAsABody() {
        for (Class<?> type : List.of(TopicRouteData.class, RegisterBrokerBody.class, ClusterInfo.class)) {
            assertThatThrownBy(() -> Json.decode("null", type)).isInstanceOf(JsonBodyException.class)
                    .hasMessage("the body is not a valid " + type.getSimpleName() + ": it is null");
        }
    }

    @Test
    void writesDataVersionLikeTheStockServer() {
        assertThat(json(new DataVersion(0, 0, 1700000000000L)))
                .isEqualTo("{\"counter\":0,\"stateVersion\":0,\"timestamp\":1700000000000}");
    }

    @Test
    void writesQueueDataAndBrokerDataWithSortedKeys() {
        assertThat(json(QUEUES_A))
                .isEqualTo("{\"brokerName\":\"broker-a\",\"perm\":6,\"readQueueNums\":4,\"topicSysFlag\":0,"
                        + "\"writeQueueNums\":4}");
        assertThat(json(BROKER_A))
                .isEqualTo("{\"brokerAddrs\":{\"0\":\"10.0.0.1:10911\",\"1\":\"10.0.0.2:10911\"},"
                        + "\"brokerName\":\"broker-a\",\"cluster\":\"DefaultCluster\",\"enableActingMaster\":false}");
    }

    @Test
    void writesZoneNameOnlyWhenPresent() {
        BrokerData zoned = new BrokerData(Map.of(0L, "a:1"), "b", "c", true, "z1");
        assertThat(json(zoned)).isEqualTo(
                "{\"brokerAddrs\":{\"0\":\"a:1\"},\"brokerName\":\"b\",\"cluster\":\"c\",\"enableActingMaster\":true,"
                        + "\"zoneName\":\"z1\"}");
    }

    @Test
    void writesClusterInfoTopicListAndKvTable() {
        ClusterInfo info = new ClusterInfo(Map.of("broker-a", BROKER_A), Map.of("DefaultCluster", Set.of("broker-a")));
        assertThat(json(info)).isEqualTo("{\"brokerAddrTable\":{\"broker-a\":" + json(BROKER_A) + "},"
                + "\"clusterAddrTable\":{\"DefaultCluster\":[\"broker-a\"]}}");
        TopicList list = new TopicList("optional", new TreeSet<>(List.of("TopicA", "TBW102")));
        assertThat(tree(json(list))).isEqualTo(tree("{\"topicList\":[\"TBW102\",\"TopicA\"],\"brokerAddr\":\"optional\"}"));
        assertThat(json(new TopicList(null, Set.of()))).isEqualTo("{\"topicList\":[]}");
        assertThat(json(new KVTable(Map.of("k", "v")))).isEqualTo("{\"table\":{\"k\":\"v\"}}");
    }

    @Test
    void writesTopicConfigLikeTheStockBroker() {
        TopicConfig config = new TopicConfig("TopicTest", 4, 4, 6, "SINGLE_TAG", 0, false, Map.of());
        assertThat(json(config)).isEqualTo("{\"attributes\":{},\"order\":false,\"perm\":6,\"readQueueNums\":4,"
                + "\"topicFilterType\":\"SINGLE_TAG\",\"topicName\":\"TopicTest\",\"topicSysFlag\":0,"
                + "\"writeQueueNums\":4}");
        assertThat(Json.decode(json(config), TopicConfig.class)).isEqualTo(config);
    }

    @Test
    void writesRouteWithQuotedKeysOrBareKeysForOldClients() {
        TopicRouteData route = new TopicRouteData(List.of(BROKER_A), Map.of(), null, List.of(QUEUES_A));
        String quoted = json(route);
        assertThat(quoted).isEqualTo("{\"brokerDatas\":[" + json(BROKER_A) + "],\"filterServerTable\":{},"
                + "\"queueDatas\":[" + json(QUEUES_A) + "]}");
        String bare = new String(Json.encodeWithBareNumericKeys(route), StandardCharsets.UTF_8);
        assertThat(bare).contains("\"brokerAddrs\":{0:\"10.0.0.1:10911\",1:\"10.0.0.2:10911\"}")
                .contains("\"brokerName\":\"broker-a\"");
        assertThat(Json.decode(bare, TopicRouteData.class)).isEqualTo(
                Json.decode(quoted, TopicRouteData.class));
    }

    @Test
    void bareKeyRewriteLeavesStringContentAlone() {
        TopicRouteData route = new TopicRouteData(List.of(), Map.of(), "{\"0\":1},\"2\":x", List.of());
        String bare = new String(Json.encodeWithBareNumericKeys(route), StandardCharsets.UTF_8);
        assertThat(Json.decode(bare, TopicRouteData.class).orderTopicConf()).isEqualTo("{\"0\":1},\"2\":x");
    }

    @Test
    void parsesTheObservedRegistrationBody() {
        String observed = "{\"filterServerList\":[],\"topicConfigSerializeWrapper\":{\"dataVersion\":{\"counter\":5,"
                + "\"stateVersion\":0,\"timestamp\":1796009342043},\"mappingDataVersion\":{\"counter\":0,"
                + "\"stateVersion\":0,\"timestamp\":1796009340000},\"topicConfigTable\":{\"TopicA\":{\"attributes\":{},"
                + "\"order\":false,\"perm\":6,\"readQueueNums\":4,\"topicFilterType\":\"SINGLE_TAG\","
                + "\"topicName\":\"TopicA\",\"topicSysFlag\":0,\"writeQueueNums\":4},\"TBW102\":{\"attributes\":{},"
                + "\"order\":false,\"perm\":7,\"readQueueNums\":8,\"topicFilterType\":\"SINGLE_TAG\","
                + "\"topicName\":\"TBW102\",\"topicSysFlag\":0,\"writeQueueNums\":8}},"
                + "\"topicQueueMappingDetailMap\":{},\"topicQueueMappingInfoMap\":{}}}";
        RegisterBrokerBody body = Json.decode(observed, RegisterBrokerBody.class);
        assertThat(body.filterServerList()).isEmpty();
        assertThat(body.topicConfigSerializeWrapper().dataVersion()).isEqualTo(new DataVersion(5, 0, 1796009342043L));
        assertThat(body.topicConfigSerializeWrapper().topicConfigTable()).containsOnlyKeys("TopicA", "TBW102");
        assertThat(body.topicConfigSerializeWrapper().topicConfigTable().get("TBW102"))
                .isEqualTo(new TopicConfig("TBW102", 8, 8, 7, "SINGLE_TAG", 0, false, Map.of()));
    }

    @Test
    void rejectsMalformedBodyWithTheTypeName() {
        assertThatThrownBy(() -> Json.decode("{\"topicConfigSerializeWrapper\":[", RegisterBrokerBody.class))
                .isInstanceOf(JsonBodyException.class)
                .hasMessageContaining("RegisterBrokerBody");
    }
}
