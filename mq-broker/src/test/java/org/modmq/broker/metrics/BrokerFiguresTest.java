package org.modmq.broker.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.modmq.api.spi.replication.ReplicaRole;
import org.modmq.api.spi.replication.RoleState;
import org.modmq.broker.admin.ExecutorQueueProbe;
import org.modmq.broker.client.ConsumerGroupRegistry;
import org.modmq.broker.client.ProducerRegistry;
import org.modmq.broker.config.BrokerConfig;
import org.modmq.broker.metadata.BrokerMetadata;
import org.modmq.remoting.protocol.body.TopicConfig;
import org.modmq.broker.runtime.BrokerRuntime;
import org.modmq.broker.runtime.QueueStatsSource;
import org.modmq.broker.stats.BrokerStats;
import org.modmq.broker.stats.TrafficCounters;
import org.modmq.broker.testing.TestConfigs;
import org.modmq.testkit.ManualClock;

/** The broker's scrape-time figures over real metadata tables and a fixed store view. */
class BrokerFiguresTest {

    private static final long T0 = 1_700_000_000_000L;

    @TempDir
    Path dir;

    private final ManualClock clock = new ManualClock(T0);
    private final RecordingSink sink = new RecordingSink();
    private ScheduledExecutorService scheduler;
    private BrokerMetadata metadata;
    private BrokerStats stats;
    private BrokerRuntime runtime;

    /** Queue 0 of TopicA holds offsets 0..9, queue 1 offsets 0..3; message {@code o} was stored at T0 + o s. */
    private final QueueStatsSource queues = new QueueStatsSource() {
        @Override
        public long maxOffset(String topic, int queueId) {
            return topic.equals("TopicA") ? (queueId == 0 ? 10 : 4) : 0;
        }

        @Override
        public long minOffset(String topic, int queueId) {
            return 0;
        }

        @Override
        public long storeTimestamp(String topic, int queueId, long queueOffset) {
            return queueOffset < maxOffset(topic, queueId) ? T0 + queueOffset * 1000 : -1;
        }

        @Override
        public long earliestMessageTime() {
            return T0;
        }

        @Override
        public long commitLogMinOffset() {
            return 0;
        }

        @Override
        public long commitLogMaxOffset() {
            return 4096;
        }
    };

    @BeforeEach
    void setUp() {
        BrokerConfig config = TestConfigs.broker(dir);
        scheduler = Executors.newSingleThreadScheduledExecutor();
        metadata = BrokerMetadata.open(config, Clock.systemUTC());
        stats = new BrokerStats(clock, sink);
        runtime = new BrokerRuntime(config, clock, scheduler, metadata, new ConsumerGroupRegistry(clock, g -> { }),
                new ProducerRegistry(clock), stats);
        metadata.topics().upsert(TopicConfig.of("TopicA", 2, 6));
    }

    @AfterEach
    void tearDown() {
        scheduler.shutdownNow();
    }

    @Test
    void consumerLagIsMaxOffsetMinusCommitPerQueueAndSummedPerTopic() {
        metadata.consumerOffsets().commit("g1", "TopicA", 0, 6);
        stats.recordGet("g1", "TopicA", 0, 2, 200, 8);
        new ConsumerLagGauges(runtime, queues).register(sink);
        clock.advance(Duration.ofSeconds(20));

        assertThat(sink.read("modmq_consumer_queue_lag_messages")).containsExactlyInAnyOrder(
                new RecordingSink.Sample(4, List.of("TopicA", "0", "g1")),
                new RecordingSink.Sample(4, List.of("TopicA", "1", "g1")));
        List<String> labels = List.of("TopicA", "g1", "false", "false");
        assertThat(sink.read("rocketmq_consumer_lag_messages")).containsExactly(new RecordingSink.Sample(8, labels));
        assertThat(sink.read("rocketmq_consumer_inflight_messages"))
                .containsExactly(new RecordingSink.Sample(2, labels));
        assertThat(sink.read("rocketmq_consumer_ready_messages")).containsExactly(new RecordingSink.Sample(6, labels));
        // The oldest uncommitted message is queue 1's offset 0, stored at T0: 20 s ago.
        assertThat(sink.read("rocketmq_consumer_lag_latency")).containsExactly(new RecordingSink.Sample(20_000, labels));
        assertThat(sink.read("rocketmq_consumer_queueing_latency"))
                .containsExactly(new RecordingSink.Sample(20_000, labels));
    }

    @Test
    void aConsumedGroupHasNoLagAndAnUnknownTopicIsLeftOut() {
        metadata.consumerOffsets().commit("g1", "TopicA", 0, 10);
        metadata.consumerOffsets().commit("g1", "TopicA", 1, 4);
        metadata.consumerOffsets().commit("g1", "Gone", 0, 3);
        new ConsumerLagGauges(runtime, queues).register(sink);

        assertThat(sink.read("rocketmq_consumer_lag_messages")).containsExactly(
                new RecordingSink.Sample(0, List.of("TopicA", "g1", "false", "false")));
        assertThat(sink.read("rocketmq_consumer_lag_latency")).extracting(RecordingSink.Sample::value).containsExactly(0.0);
    }

    @Test
    void trafficCountsMessagesAndBytesByTopicTypeAndGroup() {
        TrafficCounters traffic = stats.traffic();
        traffic.register(sink);
        stats.recordPut("TopicA", TrafficCounters.MessageType.NORMAL, 3, 300);
        stats.recordPut("TopicA", TrafficCounters.MessageType.DELAY, 1, 50);
        stats.recordGet("g1", "%RETRY%g1", 0, 2, 400, 2);

        assertThat(sink.read("rocketmq_messages_in_total")).containsExactlyInAnyOrder(
                new RecordingSink.Sample(3, List.of("TopicA", "normal", "false")),
                new RecordingSink.Sample(1, List.of("TopicA", "delay", "false")));
        assertThat(sink.read("rocketmq_throughput_in_total")).contains(
                new RecordingSink.Sample(300, List.of("TopicA", "normal", "false")));
        assertThat(sink.read("rocketmq_messages_out_total")).containsExactly(
                new RecordingSink.Sample(2, List.of("%RETRY%g1", "g1", "true", "false")));
        assertThat(sink.read("rocketmq_throughput_out_total")).containsExactly(
                new RecordingSink.Sample(400, List.of("%RETRY%g1", "g1", "true", "false")));
        assertThat(sink.observed).containsEntry("rocketmq_message_size[TopicA, normal, false]_count", 1.0);
    }

    @Test
    void messageTypeComesFromTheFlagsAndProperties() {
        assertThat(TrafficCounters.MessageType.of(0, "TAGS\u0001a\u0002")).isEqualTo(TrafficCounters.MessageType.NORMAL);
        assertThat(TrafficCounters.MessageType.of(0, "DELAY\u00013\u0002")).isEqualTo(TrafficCounters.MessageType.DELAY);
        assertThat(TrafficCounters.MessageType.of(0, "TIMER_DELAY_MS\u00011000\u0002"))
                .isEqualTo(TrafficCounters.MessageType.DELAY);
        assertThat(TrafficCounters.MessageType.of(0x4, "")).isEqualTo(TrafficCounters.MessageType.TRANSACTION);
    }

    @Test
    void gaugesReadRoleStorageAndTables() {
        new BrokerGauges(runtime, queues, ExecutorQueueProbe.NONE, () -> new RoleState(ReplicaRole.MASTER, 3, null))
                .register(sink);

        assertThat(sink.read("modmq_broker_role")).containsExactly(new RecordingSink.Sample(1, List.of("master")));
        assertThat(sink.read("modmq_broker_epoch")).containsExactly(new RecordingSink.Sample(3, List.of()));
        assertThat(sink.read("modmq_store_commitlog_bytes")).containsExactly(new RecordingSink.Sample(4096, List.of()));
        assertThat(sink.read("rocketmq_processor_watermark")).hasSize(5);
        assertThat(sink.read("rocketmq_topic_number").get(0).value()).isGreaterThanOrEqualTo(1);
        assertThat(sink.read("rocketmq_broker_permission")).containsExactly(new RecordingSink.Sample(6, List.of()));
        assertThat(BrokerGauges.consumeMode("CONSUME_PASSIVELY")).isEqualTo("push");
    }
}
