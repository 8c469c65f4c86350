package org.modmq.broker.admin;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.modmq.broker.admin.AdminBodies.ConsumeStats;
import org.modmq.broker.admin.AdminBodies.ConsumeStatsList;
import org.modmq.broker.admin.AdminBodies.GroupList;
import org.modmq.broker.admin.AdminBodies.KVTable;
import org.modmq.broker.admin.AdminBodies.MessageQueue;
import org.modmq.broker.admin.AdminBodies.OffsetWrapper;
import org.modmq.broker.admin.AdminBodies.TopicList;
import org.modmq.broker.admin.AdminBodies.TopicOffset;
import org.modmq.broker.admin.AdminBodies.TopicStatsTable;
import org.modmq.remoting.protocol.Json;

/** The bodies against the shapes of protocol notes 4.2, with MessageQueue keys as JSON-in-a-string (4.1). */
class AdminBodiesJsonTest {

    private static final String MQ_KEY = "{\\\"brokerName\\\":\\\"broker-a\\\",\\\"queueId\\\":0,"
            + "\\\"topic\\\":\\\"TopicTest\\\"}";

    private static String json(Object body) {
        return new String(Json.encode(body), StandardCharsets.UTF_8);
    }

    @Test
    void messageQueueKeyIsTheQueueJsonAsAString() {
        MessageQueue queue = new MessageQueue("broker-a", 0, "TopicTest");
        assertThat(queue.jsonKey()).isEqualTo("{\"brokerName\":\"broker-a\",\"queueId\":0,\"topic\":\"TopicTest\"}");
        assertThat(Json.decode(queue.jsonKey().getBytes(StandardCharsets.UTF_8), MessageQueue.class)).isEqualTo(queue);
    }

    @Test
    void consumeStatsHasTheStockShape() {
        ConsumeStats stats = new ConsumeStats(1.5, Map.of(new MessageQueue("broker-a", 0, "TopicTest").jsonKey(),
                new OffsetWrapper(10, 5, 1700000000000L, 6)));
        assertThat(json(stats)).isEqualTo("{\"consumeTps\":1.5,\"offsetTable\":{\"" + MQ_KEY + "\":{\"brokerOffset\":10,"
                + "\"consumerOffset\":5,\"lastTimestamp\":1700000000000,\"pullOffset\":6}}}");
        assertThat(stats.computeDiff()).isEqualTo(5);
    }

    @Test
    void topicStatsTableHasTheStockShape() {
        TopicStatsTable table = new TopicStatsTable(Map.of(new MessageQueue("broker-a", 0, "TopicTest").jsonKey(),
                new TopicOffset(1700000000000L, 10, 0)), 0.0);
        assertThat(json(table)).isEqualTo("{\"offsetTable\":{\"" + MQ_KEY + "\":{\"lastUpdateTimestamp\":1700000000000,"
                + "\"maxOffset\":10,\"minOffset\":0}},\"topicPutTps\":0.0}");
    }

    @Test
    void listsAndTablesHaveTheStockShape() {
        assertThat(json(new KVTable(Map.of("k", "v")))).isEqualTo("{\"table\":{\"k\":\"v\"}}");
        assertThat(json(new TopicList(Set.of("TopicA", "TBW102"), null))).isEqualTo("{\"topicList\":[\"TBW102\",\"TopicA\"]}");
        assertThat(json(new TopicList(Set.of("T"), "127.0.0.1:10911")))
                .isEqualTo("{\"brokerAddr\":\"127.0.0.1:10911\",\"topicList\":[\"T\"]}");
        assertThat(json(new GroupList(Set.of("cg")))).isEqualTo("{\"groupList\":[\"cg\"]}");
    }

    @Test
    void consumeStatsListNestsStatsPerGroup() throws Exception {
        ConsumeStats stats = new ConsumeStats(0, Map.of(new MessageQueue("b", 1, "t").jsonKey(),
                new OffsetWrapper(4, 1, 0, 1)));
        JsonNode tree = Json.mapper().readTree(Json.encode(new ConsumeStatsList("127.0.0.1:1", List.of(
                Map.of("cg", List.of(stats))), 3)));
        assertThat(tree.path("brokerAddr").asText()).isEqualTo("127.0.0.1:1");
        assertThat(tree.path("totalDiff").asLong()).isEqualTo(3);
        assertThat(tree.path("consumeStatsList").get(0).path("cg").get(0).path("offsetTable")
                .path("{\"brokerName\":\"b\",\"queueId\":1,\"topic\":\"t\"}").path("brokerOffset").asLong()).isEqualTo(4);
    }
}
