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

/** The bodies against the shapes of docs/protocol.md section 4.2, with MessageQueue keys in fastjson's object form. */
class AdminBodiesJsonTest {

    private static final String MQ_KEY = "{\"brokerName\":\"broker-a\",\"queueId\":0,\"topic\":\"TopicTest\"}";

    private static String json(Object body) {
        return new String(Json.encode(body), StandardCharsets.UTF_8);
    }

    @Test
    void messageQueueIsWrittenWithSortedFields() {
        MessageQueue queue = new MessageQueue("broker-a", 0, "TopicTest");
        assertThat(json(queue)).isEqualTo(MQ_KEY);
        assertThat(Json.decode(MQ_KEY.getBytes(StandardCharsets.UTF_8), MessageQueue.class)).isEqualTo(queue);
    }

    @Test
    void queueKeyedTablesAreWrittenInQueueOrderWithObjectKeys() {
        Map<MessageQueue, OffsetWrapper> table = new java.util.HashMap<>();
        table.put(new MessageQueue("b", 10, "t"), new OffsetWrapper(1, 1, 0, 1));
        table.put(new MessageQueue("b", 2, "t"), new OffsetWrapper(2, 2, 0, 2));
        table.put(new MessageQueue("a", 5, "t"), new OffsetWrapper(3, 3, 0, 3));
        table.put(new MessageQueue("z", 0, "s"), new OffsetWrapper(4, 4, 0, 4));
        String written = json(new ConsumeStats(0, table));
        assertThat(written).startsWith("{\"consumeTps\":0.0,\"offsetTable\":{{\"brokerName\":\"z\",\"queueId\":0,"
                + "\"topic\":\"s\"}:{\"brokerOffset\":4,");
        assertThat(written.indexOf("\"queueId\":5")).isLessThan(written.indexOf("\"queueId\":2"));
        assertThat(written.indexOf("\"queueId\":2")).isLessThan(written.indexOf("\"queueId\":10"));
        assertThat(json(new ConsumeStats(0, Map.of()))).isEqualTo("{\"consumeTps\":0.0,\"offsetTable\":{}}");
        // Jackson cannot read this form back; the test helper quotes the keys to check the values.
        assertThat(QueueKeyedJson.tree(written.getBytes(StandardCharsets.UTF_8)).path("offsetTable")
                .path(QueueKeyedJson.key(new MessageQueue("b", 10, "t"))).path("pullOffset").asLong()).isEqualTo(1);
    }

    @Test
    void consumeStatsHasTheStockShape() {
        ConsumeStats stats = new ConsumeStats(1.5, Map.of(new MessageQueue("broker-a", 0, "TopicTest"),
                new OffsetWrapper(10, 5, 1700000000000L, 6)));
        assertThat(json(stats)).isEqualTo("{\"consumeTps\":1.5,\"offsetTable\":{" + MQ_KEY + ":{\"brokerOffset\":10,"
                + "\"consumerOffset\":5,\"lastTimestamp\":1700000000000,\"pullOffset\":6}}}");
        assertThat(stats.computeDiff()).isEqualTo(5);
    }

    @Test
    void topicStatsTableHasTheStockShape() {
        TopicStatsTable table = new TopicStatsTable(Map.of(new MessageQueue("broker-a", 0, "TopicTest"),
                new TopicOffset(1700000000000L, 10, 0)), 0.0);
        assertThat(json(table)).isEqualTo("{\"offsetTable\":{" + MQ_KEY + ":{\"lastUpdateTimestamp\":1700000000000,"
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
        ConsumeStats stats = new ConsumeStats(0, Map.of(new MessageQueue("b", 1, "t"),
                new OffsetWrapper(4, 1, 0, 1)));
        JsonNode tree = QueueKeyedJson.tree(Json.encode(new ConsumeStatsList("127.0.0.1:1", List.of(
                Map.of("cg", List.of(stats))), 3)));
        assertThat(tree.path("brokerAddr").asText()).isEqualTo("127.0.0.1:1");
        assertThat(tree.path("totalDiff").asLong()).isEqualTo(3);
        assertThat(tree.path("consumeStatsList").get(0).path("cg").get(0).path("offsetTable")
                .path("{\"brokerName\":\"b\",\"queueId\":1,\"topic\":\"t\"}").path("brokerOffset").asLong()).isEqualTo(4);
    }
}
