package org.modmq.broker.admin;

import org.modmq.broker.stats.BrokerStats;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.modmq.broker.client.ConsumerData;
import org.modmq.broker.client.ConsumerGroupRegistry;
import org.modmq.broker.client.HeartbeatData;
import org.modmq.broker.client.ProducerRegistry;
import org.modmq.broker.config.BrokerConfig;
import org.modmq.broker.metadata.BrokerMetadata;
import org.modmq.broker.runtime.BrokerRuntime;
import org.modmq.broker.testing.FakeChannel;
import org.modmq.broker.testing.Samples;
import org.modmq.broker.testing.TestConfigs;
import org.modmq.remoting.protocol.HeaderFieldException;
import org.modmq.remoting.protocol.Json;
import org.modmq.remoting.protocol.RemotingCommand;
import org.modmq.remoting.protocol.RequestCode;
import org.modmq.remoting.protocol.ResponseCode;
import org.modmq.remoting.protocol.body.TopicConfig;
import org.modmq.testkit.ManualClock;

/** Processor-level tests over real metadata tables and a fake store. */
class StatsProcessorsTest {

    private static final long T0 = 1_700_000_000_000L;

    @TempDir
    Path dir;

    private final FakeChannel channel = new FakeChannel("admin");
    private final ManualClock clock = new ManualClock(T0);
    private final FakeQueueStats queues = new FakeQueueStats();
    private ScheduledExecutorService scheduler;
    private BrokerMetadata metadata;
    private ConsumerGroupRegistry consumers;
    private BrokerStats stats;
    private AdminContext context;

    @BeforeEach
    void setUp() {
        BrokerConfig config = TestConfigs.broker(dir);
        scheduler = Executors.newSingleThreadScheduledExecutor();
        metadata = BrokerMetadata.open(config, Clock.systemUTC());
        consumers = new ConsumerGroupRegistry(clock, g -> { });
        stats = new BrokerStats(clock);
        context = new AdminContext(new BrokerRuntime(config, clock, scheduler, metadata, consumers,
                new ProducerRegistry(clock), stats), queues, stats, ExecutorQueueProbe.NONE, () -> "127.0.0.1:10911");
        metadata.topics().upsert(TopicConfig.of("TopicA", 2, 6));
        metadata.topics().upsert(new TopicConfig("TopicB", 1, 3, 6, null, 0, true, null));
    }

    @AfterEach
    void tearDown() {
        scheduler.shutdownNow();
    }

    private static JsonNode body(RemotingCommand response) {
        assertThat(response.code()).as(response.remark()).isEqualTo(ResponseCode.SUCCESS);
        return QueueKeyedJson.tree(response.body());
    }

    private static String mq(String topic, int queueId) {
        return QueueKeyedJson.key(new AdminBodies.MessageQueue("broker-a", queueId, topic));
    }

    private void heartbeat() {
        HeartbeatData data = HeartbeatData.parse(Samples.PUSH_CONSUMER_HEARTBEAT.getBytes(StandardCharsets.UTF_8));
        for (ConsumerData consumer : data.consumerDataSet()) {
            consumers.register(channel, data.clientID(), "JAVA", 479, consumer, false);
        }
    }

    @Test
    void topicStatsCoverEveryQueueWithTheLastStoreTime() {
        queues.queue("TopicB", 0, 2, 10, T0).queue("TopicB", 2, 0, 1, T0);
        TopicStatsProcessor processor = new TopicStatsProcessor(context);
        JsonNode table = body(processor.process(channel, RemotingCommand.request(RequestCode.GET_TOPIC_STATS_INFO)
                .putExtField("topic", "TopicB"))).path("offsetTable");
        assertThat(table.size()).isEqualTo(3);
        assertThat(table.path(mq("TopicB", 0)).path("minOffset").asLong()).isEqualTo(2);
        assertThat(table.path(mq("TopicB", 0)).path("maxOffset").asLong()).isEqualTo(10);
        assertThat(table.path(mq("TopicB", 0)).path("lastUpdateTimestamp").asLong()).isEqualTo(T0 + 9);
        assertThat(table.path(mq("TopicB", 1)).path("lastUpdateTimestamp").asLong()).isZero();
        assertThat(table.path(mq("TopicB", 2)).path("lastUpdateTimestamp").asLong()).isEqualTo(T0);

        RemotingCommand unknown = processor.process(channel, RemotingCommand.request(RequestCode.GET_TOPIC_STATS_INFO)
                .putExtField("topic", "Nope"));
        assertThat(unknown.code()).isEqualTo(ResponseCode.TOPIC_NOT_EXIST);
    }

    @Test
    void listsSystemTopicsAndTopicNames() {
        TopicStatsProcessor processor = new TopicStatsProcessor(context);
        List<String> system = new ArrayList<>();
        body(processor.process(channel, RemotingCommand.request(RequestCode.GET_SYSTEM_TOPIC_LIST_FROM_BROKER)))
                .path("topicList").forEach(n -> system.add(n.asText()));
        assertThat(system).contains("SCHEDULE_TOPIC_XXXX", "TBW102", "DefaultCluster", "broker-a",
                "RMQ_SYS_TRANS_HALF_TOPIC").doesNotContain("TopicA");
        List<String> names = new ArrayList<>();
        JsonNode list = body(processor.process(channel, RemotingCommand.request(RequestCode.GET_TOPIC_NAME_LIST)));
        list.path("topicList").forEach(n -> names.add(n.asText()));
        assertThat(names).contains("TopicA", "TopicB", "TBW102");
        assertThat(list.path("brokerAddr").asText()).isEqualTo("127.0.0.1:10911");
    }

    @Test
    void consumeStatsFollowTheProgressRules() {
        queues.queue("TopicA", 0, 0, 10, T0).queue("TopicA", 1, 0, 4, T0);
        metadata.consumerOffsets().commit("cg", "TopicA", 0, 6);
        stats.recordGet("cg", "TopicA", 0, 2, 8);
        stats.recordGetMiss("cg", "TopicA", 1, 0);
        ConsumeStatsProcessor processor = new ConsumeStatsProcessor(context);

        JsonNode result = body(processor.process(channel, RemotingCommand.request(RequestCode.GET_CONSUME_STATS)
                .putExtField("consumerGroup", "cg")));
        JsonNode table = result.path("offsetTable");
        assertThat(table.size()).isEqualTo(2);
        JsonNode q0 = table.path(mq("TopicA", 0));
        assertThat(q0.path("brokerOffset").asLong()).isEqualTo(10);
        assertThat(q0.path("consumerOffset").asLong()).isEqualTo(6);
        assertThat(q0.path("pullOffset").asLong()).isEqualTo(8);
        assertThat(q0.path("lastTimestamp").asLong()).isEqualTo(T0 + 5);
        JsonNode q1 = table.path(mq("TopicA", 1));
        assertThat(q1.path("brokerOffset").asLong()).isEqualTo(4);
        assertThat(q1.path("consumerOffset").asLong()).isZero();
        assertThat(q1.path("pullOffset").asLong()).isZero();
        assertThat(q1.path("lastTimestamp").asLong()).isZero();
        assertThat(result.has("consumeTps")).isTrue();

        // An explicit topic list, read queues only (TopicB has 1 read queue of 3); unknown topics are skipped.
        JsonNode listed = body(processor.process(channel, RemotingCommand.request(RequestCode.GET_CONSUME_STATS)
                .putExtField("consumerGroup", "cg").putExtField("topicList", "TopicB, Nope")));
        assertThat(listed.path("offsetTable").size()).isEqualTo(1);
        assertThat(listed.path("offsetTable").has(mq("TopicB", 0))).isTrue();
    }

    @Test
    void consumeStatsSkipTopicsOutsideALiveGroupsSubscriptions() {
        heartbeat();
        metadata.consumerOffsets().commit("pushg", "TopicA", 0, 1);
        metadata.topics().upsert(TopicConfig.of("%RETRY%pushg", 1, 6));
        metadata.consumerOffsets().commit("pushg", "%RETRY%pushg", 0, 0);
        ConsumeStatsProcessor processor = new ConsumeStatsProcessor(context);
        JsonNode table = body(processor.process(channel, RemotingCommand.request(RequestCode.GET_CONSUME_STATS)
                .putExtField("consumerGroup", "pushg"))).path("offsetTable");
        // pushg subscribes to TopicA and its retry topic: both count.
        assertThat(table.size()).isEqualTo(3);
        JsonNode onlyB = body(processor.process(channel, RemotingCommand.request(RequestCode.GET_CONSUME_STATS)
                .putExtField("consumerGroup", "pushg").putExtField("topic", "TopicB"))).path("offsetTable");
        assertThat(onlyB.size()).isZero();
    }

    @Test
    void brokerConsumeStatsListEveryGroupWithItsDiff() {
        queues.queue("TopicA", 0, 0, 10, T0).queue("TopicB", 0, 0, 5, T0);
        metadata.subscriptionGroups().findOrCreate("cg");
        metadata.consumerOffsets().commit("cg", "TopicA", 0, 6);
        metadata.consumerOffsets().commit("cg", "TopicB", 0, 5);
        ConsumeStatsProcessor processor = new ConsumeStatsProcessor(context);
        JsonNode all = body(processor.process(channel, RemotingCommand.request(RequestCode.GET_BROKER_CONSUME_STATS)
                .putExtField("isOrder", false).putExtField("timeoutMillis", 3000)));
        assertThat(all.path("brokerAddr").asText()).isEqualTo("127.0.0.1:10911");
        assertThat(all.path("totalDiff").asLong()).isEqualTo(4);
        JsonNode cg = null;
        for (JsonNode entry : all.path("consumeStatsList")) {
            if (entry.has("cg")) {
                cg = entry.path("cg");
            }
        }
        assertThat(cg).isNotNull();
        assertThat(cg.size()).isEqualTo(2);

        JsonNode ordered = body(processor.process(channel, RemotingCommand.request(RequestCode.GET_BROKER_CONSUME_STATS)
                .putExtField("isOrder", true)));
        assertThat(ordered.path("totalDiff").asLong()).isZero();
    }

    @Test
    void findsWhoConsumesATopicAndWhatAGroupConsumes() {
        heartbeat();
        metadata.consumerOffsets().commit("cg", "TopicA", 0, 3);
        ConsumptionLookupProcessor processor = new ConsumptionLookupProcessor(context);
        List<String> groups = new ArrayList<>();
        body(processor.process(channel, RemotingCommand.request(RequestCode.QUERY_TOPIC_CONSUME_BY_WHO)
                .putExtField("topic", "TopicA"))).path("groupList").forEach(n -> groups.add(n.asText()));
        assertThat(groups).containsExactly("cg", "pushg");

        List<String> topics = new ArrayList<>();
        JsonNode list = body(processor.process(channel, RemotingCommand.request(RequestCode.QUERY_TOPICS_BY_CONSUMER)
                .putExtField("group", "pushg")));
        list.path("topicList").forEach(n -> topics.add(n.asText()));
        assertThat(topics).containsExactly("%RETRY%pushg", "TopicA");
        assertThat(list.path("brokerAddr").asText()).isEqualTo("127.0.0.1:10911");
        assertThatThrownBy(() -> processor.process(channel, RemotingCommand.request(
                RequestCode.QUERY_TOPICS_BY_CONSUMER))).isInstanceOf(HeaderFieldException.class).hasMessageContaining("group");
    }

    @Test
    void runtimeInfoCarriesEveryKeyClusterListParses() {
        queues.earliest = T0 - 5;
        queues.commitLogMax = 4096;
        stats.recordPut("TopicA", 3, 300);
        stats.sample();
        clock.advance(java.time.Duration.ofSeconds(90_061));
        Map<String, String> table = new RuntimeInfoProcessor(context).runtimeInfo();
        assertThat(table).containsEntry("brokerVersionDesc", "V5_3_3").containsEntry("brokerVersion", "479")
                .containsEntry("brokerActive", "true").containsEntry("earliestMessageTimeStamp", Long.toString(T0 - 5))
                .containsEntry("commitLogMaxOffset", "4096").containsEntry("msgPutTotalTodayNow", "3")
                .containsEntry("bootTimestamp", Long.toString(T0))
                .containsEntry("runtime", "[ 1 days, 1 hours, 1 minutes, 1 seconds ]");
        for (String key : List.of("sendThreadPoolQueueSize", "pullThreadPoolQueueSize", "ackThreadPoolQueueSize",
                "sendThreadPoolQueueHeadWaitTimeMills", "pullThreadPoolQueueHeadWaitTimeMills",
                "pageCacheLockTimeMills", "earliestMessageTimeStamp", "timerReadBehind", "timerOffsetBehind",
                "timerCongestNum", "msgPutTotalYesterdayMorning", "msgPutTotalTodayMorning", "msgPutTotalTodayNow",
                "msgGetTotalYesterdayMorning", "msgGetTotalTodayMorning", "msgGetTotalTodayNow",
                "commitLogMinOffset", "commitLogMaxOffset", "dispatchBehindBytes", "putMessageEntireTimeMax",
                "putMessageFailedTimes", "remainTransientStoreBufferNumbs")) {
            assertThat(Long.parseLong(table.get(key))).as(key).isNotNegative().isNotNull();
        }
        for (String key : List.of("commitLogDiskRatio", "timerEnqueueTps", "timerDequeueTps")) {
            assertThat(Double.parseDouble(table.get(key))).as(key).isBetween(0.0, 1e9);
        }
        for (String key : List.of("putTps", "getTransferredTps", "getTransferedTps", "getFoundTps", "getMissTps",
                "getTotalTps")) {
            String[] parts = table.get(key).split(" ");
            assertThat(parts).as(key).hasSize(3);
            for (String part : parts) {
                Double.parseDouble(part);
            }
        }
    }

    @Test
    void runtimeInfoHasEveryKeyOfAStockBrokerWithHonestValues() {
        // The keys a 5.3.3 broker without timer wheel, transient store pool or plugins reports.
        List<String> stock = List.of("bootTimestamp", "runtime", "putMessageEntireTimeMax", "putMessageTimesTotal",
                "putMessageFailedTimes", "putMessageSizeTotal", "putMessageDistributeTime", "putMessageAverageSize",
                "dispatchMaxBuffer", "getMessageEntireTimeMax", "putTps", "getFoundTps", "getMissTps", "getTotalTps",
                "getTransferredTps", "putLatency99", "putLatency999", "commitLogDiskRatio", "consumeQueueDiskRatio",
                "commitLogMinOffset", "commitLogMaxOffset", "brokerActive", "brokerVersionDesc", "brokerVersion",
                "msgPutTotalYesterdayMorning", "msgPutTotalTodayMorning", "msgPutTotalTodayNow",
                "msgGetTotalYesterdayMorning", "msgGetTotalTodayMorning", "msgGetTotalTodayNow", "dispatchBehindBytes",
                "pageCacheLockTimeMills", "earliestMessageTimeStamp", "startAcceptSendRequestTimeStamp",
                "timerReadBehind", "timerOffsetBehind", "timerCongestNum", "timerEnqueueTps", "timerDequeueTps",
                "remainTransientStoreBufferNumbs", "remainHowManyDataToFlush", "commitLogDirCapacity",
                "sendThreadPoolQueueSize", "sendThreadPoolQueueCapacity", "pullThreadPoolQueueSize",
                "pullThreadPoolQueueCapacity", "litePullThreadPoolQueueSize", "litePullThreadPoolQueueCapacity",
                "queryThreadPoolQueueSize", "queryThreadPoolQueueCapacity", "ackThreadPoolQueueSize",
                "ackThreadPoolQueueCapacity", "sendThreadPoolQueueHeadWaitTimeMills",
                "pullThreadPoolQueueHeadWaitTimeMills", "queryThreadPoolQueueHeadWaitTimeMills",
                "litePullThreadPoolQueueHeadWaitTimeMills", "ackThreadPoolQueueHeadWaitTimeMills",
                "EndTransactionQueueSize", "EndTransactionThreadPoolQueueCapacity");
        metadata.delayOffsets().update(3, 4);
        queues.queue("SCHEDULE_TOPIC_XXXX", 2, 0, 7, T0);
        queues.unflushed = 3 * 1024 / 2;
        stats.recordPutTime(0, true);
        stats.recordPutTime(12, true);
        stats.recordPutTime(7_000, false);
        clock.advance(java.time.Duration.ofSeconds(61));
        stats.sample();

        Map<String, String> table = new RuntimeInfoProcessor(context).runtimeInfo();
        assertThat(table).containsKeys(stock.toArray(String[]::new));
        assertThat(table).containsEntry("putMessageEntireTimeMax", "7000").containsEntry("putMessageFailedTimes", "1")
                .containsEntry("putMessageDistributeTime", "[<=0ms]:1 [0~10ms]:0 [10~50ms]:1 [50~100ms]:0 "
                        + "[100~200ms]:0 [200~500ms]:0 [500ms~1s]:0 [1~2s]:0 [2~3s]:0 [3~4s]:0 [4~5s]:0 [5~10s]:1 [10s~]:0 ")
                .containsEntry("putLatency99", "50.00")
                .containsEntry("scheduleMessageOffset_3", "4,7")
                .containsEntry("remainHowManyDataToFlush", "1.5 KiB")
                .containsEntry("remainTransientStoreBufferNumbs", Integer.toString(Integer.MAX_VALUE))
                .containsEntry("getTransferedTps", table.get("getTransferredTps"))
                .containsKey("commitLogDiskRatio_" + TestConfigs.broker(dir).store().commitLogDir());
    }
}
