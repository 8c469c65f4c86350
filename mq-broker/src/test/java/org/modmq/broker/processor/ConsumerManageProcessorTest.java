package org.modmq.broker.processor;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Clock;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.modmq.broker.client.ConsumerData;
import org.modmq.broker.client.ConsumerGroupRegistry;
import org.modmq.broker.config.BrokerConfig;
import org.modmq.broker.metadata.BrokerMetadata;
import org.modmq.broker.runtime.QueueOffsets;
import org.modmq.broker.testing.FakeChannel;
import org.modmq.broker.testing.TestConfigs;
import org.modmq.remoting.protocol.Json;
import org.modmq.remoting.protocol.RemotingCommand;
import org.modmq.remoting.protocol.RequestCode;
import org.modmq.remoting.protocol.ResponseCode;

class ConsumerManageProcessorTest {

    /** Queue bounds keyed "topic/queueId" → {min, max, resident-from}. */
    static final class FakeQueues implements QueueOffsets {
        final Map<String, long[]> queues = new ConcurrentHashMap<>();

        void put(String topic, int queueId, long min, long max, long residentFrom) {
            queues.put(topic + "/" + queueId, new long[] {min, max, residentFrom});
        }

        @Override
        public long minOffset(String topic, int queueId) {
            return queues.getOrDefault(topic + "/" + queueId, new long[3])[0];
        }

        @Override
        public long maxOffset(String topic, int queueId) {
            return queues.getOrDefault(topic + "/" + queueId, new long[3])[1];
        }

        @Override
        public boolean isInMemory(String topic, int queueId, long offset) {
            long[] q = queues.get(topic + "/" + queueId);
            return q != null && offset >= q[0] && offset < q[1] && offset >= q[2];
        }
    }

    @TempDir
    Path dir;

    private final FakeQueues queues = new FakeQueues();
    private final FakeChannel channel = new FakeChannel("c1");
    private BrokerMetadata metadata;
    private ConsumerGroupRegistry consumers;
    private ConsumerManageProcessor processor;

    @BeforeEach
    void setUp() {
        BrokerConfig config = TestConfigs.broker(dir);
        metadata = BrokerMetadata.open(config, Clock.systemUTC());
        consumers = new ConsumerGroupRegistry(Clock.systemUTC(), g -> { });
        processor = new ConsumerManageProcessor(metadata, consumers, queues);
        metadata.topics().upsert(org.modmq.remoting.protocol.body.TopicConfig.of("TopicTest", 4, 6));
        metadata.subscriptionGroups().findOrCreate("cg");
    }

    private RemotingCommand query(int queueId, String setZero) {
        RemotingCommand request = RemotingCommand.request(RequestCode.QUERY_CONSUMER_OFFSET)
                .putExtField("consumerGroup", "cg").putExtField("topic", "TopicTest").putExtField("queueId", queueId)
                .putExtField("setZeroIfNotFound", setZero);
        return processor.process(channel, request);
    }

    private RemotingCommand update(String group, String topic, int queueId, long offset) {
        RemotingCommand request = RemotingCommand.request(RequestCode.UPDATE_CONSUMER_OFFSET)
                .putExtField("consumerGroup", group).putExtField("topic", topic).putExtField("queueId", queueId)
                .putExtField("commitOffset", offset).markOneway();
        return processor.process(channel, request);
    }

    @Test
    void answersZeroForANewGroupOnlyWhileTheQueueHeadIsHot() {
        queues.put("TopicTest", 0, 0, 10, 0);
        queues.put("TopicTest", 1, 0, 10, 5);
        queues.put("TopicTest", 2, 3, 10, 3);

        RemotingCommand young = query(0, null);
        assertThat(young.code()).isEqualTo(ResponseCode.SUCCESS);
        assertThat(young.extField("offset")).isEqualTo("0");
        assertThat(young.isResponse()).isTrue();
        assertThat(query(0, "false").code()).isEqualTo(ResponseCode.QUERY_NOT_FOUND);
        assertThat(query(1, null).code()).isEqualTo(ResponseCode.QUERY_NOT_FOUND);
        assertThat(query(2, null).code()).isEqualTo(ResponseCode.QUERY_NOT_FOUND);
        assertThat(query(3, null).code()).isEqualTo(ResponseCode.QUERY_NOT_FOUND);
    }

    @Test
    void storesCommittedOffsetsAndAnswersThem() {
        assertThat(update("cg", "TopicTest", 1, 42).code()).isEqualTo(ResponseCode.SUCCESS);
        RemotingCommand answer = query(1, "false");
        assertThat(answer.code()).isEqualTo(ResponseCode.SUCCESS);
        assertThat(answer.extField("offset")).isEqualTo("42");
        assertThat(update("unknown-group", "TopicTest", 1, 1).code())
                .isEqualTo(ResponseCode.SUBSCRIPTION_GROUP_NOT_EXIST);
        assertThat(update("cg", "NoSuchTopic", 1, 1).code()).isEqualTo(ResponseCode.TOPIC_NOT_EXIST);
        assertThat(metadata.consumerOffsets().query("cg", "NoSuchTopic", 1)).isEmpty();
    }

    @Test
    void aNegativeCommitIsKeptButAnsweredAsNoOffset() {
        // A client that read nothing commits -1; the query must then answer as for a new group, so the
        // messages sent meanwhile (head still hot) are read from 0 rather than skipped.
        assertThat(update("cg", "TopicTest", 0, -1).code()).isEqualTo(ResponseCode.SUCCESS);
        assertThat(metadata.consumerOffsets().query("cg", "TopicTest", 0)).hasValue(-1);
        assertThat(query(0, null).code()).isEqualTo(ResponseCode.QUERY_NOT_FOUND);

        queues.put("TopicTest", 0, 0, 3, 0);
        RemotingCommand afterSends = query(0, null);
        assertThat(afterSends.code()).isEqualTo(ResponseCode.SUCCESS);
        assertThat(afterSends.extField("offset")).isEqualTo("0");
        assertThat(query(0, "false").code()).isEqualTo(ResponseCode.QUERY_NOT_FOUND);
    }

    @Test
    void unknownGroupsAndQueuesHaveNoOffset() {
        assertThat(update("cg", "TopicTest", 1, 7).code()).isEqualTo(ResponseCode.SUCCESS);
        RemotingCommand unknownGroup = RemotingCommand.request(RequestCode.QUERY_CONSUMER_OFFSET)
                .putExtField("consumerGroup", "nobody").putExtField("topic", "TopicTest").putExtField("queueId", 1);
        assertThat(processor.process(channel, unknownGroup).code()).isEqualTo(ResponseCode.QUERY_NOT_FOUND);
        assertThat(query(99, null).code()).isEqualTo(ResponseCode.QUERY_NOT_FOUND);
        assertThat(query(-1, null).code()).isEqualTo(ResponseCode.QUERY_NOT_FOUND);
    }

    @Test
    void listsTheGroupsLiveConsumers() {
        RemotingCommand request = RemotingCommand.request(RequestCode.GET_CONSUMER_LIST_BY_GROUP)
                .putExtField("consumerGroup", "cg");
        assertThat(processor.process(channel, request).code()).isEqualTo(ResponseCode.SYSTEM_ERROR);
        consumers.register(channel, "10.0.0.5@1", "JAVA", 479, new ConsumerData("cg", "CONSUME_PASSIVELY",
                "CLUSTERING", "CONSUME_FROM_LAST_OFFSET", Set.of(), false), false);
        consumers.register(new FakeChannel("c2"), "10.0.0.4@1", "JAVA", 479, new ConsumerData("cg",
                "CONSUME_PASSIVELY", "CLUSTERING", "CONSUME_FROM_LAST_OFFSET", Set.of(), false), false);
        RemotingCommand answer = processor.process(channel, request);
        assertThat(answer.code()).isEqualTo(ResponseCode.SUCCESS);
        assertThat(new String(answer.body(), java.nio.charset.StandardCharsets.UTF_8))
                .isEqualTo("{\"consumerIdList\":[\"10.0.0.4@1\",\"10.0.0.5@1\"]}");
        assertThat(Json.decode(answer.body(), ConsumerManageProcessor.ConsumerIdList.class).consumerIdList())
                .hasSize(2);
    }
}
