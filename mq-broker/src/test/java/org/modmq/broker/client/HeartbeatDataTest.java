package org.modmq.broker.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.modmq.broker.testing.Samples;
import org.modmq.remoting.protocol.JsonBodyException;

class HeartbeatDataTest {

    static final String PUSH_CONSUMER_HEARTBEAT = Samples.PUSH_CONSUMER_HEARTBEAT;

    @Test
    void parsesAStockPushConsumerHeartbeat() {
        HeartbeatData data = HeartbeatData.parse(PUSH_CONSUMER_HEARTBEAT.getBytes(StandardCharsets.UTF_8));
        assertThat(data.clientID()).isEqualTo("127.0.0.1@pushinst");
        assertThat(data.producerDataSet()).containsExactly(new ProducerData("CLIENT_INNER_PRODUCER"));
        assertThat(data.consumerDataSet()).hasSize(1);
        ConsumerData consumer = data.consumerDataSet().iterator().next();
        assertThat(consumer.groupName()).isEqualTo("pushg");
        assertThat(consumer.consumeType()).isEqualTo("CONSUME_PASSIVELY");
        assertThat(consumer.messageModel()).isEqualTo("CLUSTERING");
        assertThat(consumer.consumeFromWhere()).isEqualTo("CONSUME_FROM_FIRST_OFFSET");
        assertThat(consumer.isBroadcasting()).isFalse();
        SubscriptionData topicA = consumer.subscriptionDataSet().stream().filter(s -> s.topic().equals("TopicA"))
                .findFirst().orElseThrow();
        assertThat(topicA.tagsSet()).containsExactlyInAnyOrder("TagA", "TagB");
        assertThat(topicA.codeSet()).containsExactlyInAnyOrder("TagA".hashCode(), "TagB".hashCode());
        assertThat(topicA.subVersion()).isEqualTo(1796009226087L);
        assertThat(topicA.matchesAll()).isFalse();
        assertThat(consumer.subscriptionDataSet()).anyMatch(s -> s.topic().equals("%RETRY%pushg") && s.matchesAll());
    }

    @Test
    void toleratesAProducerOnlyHeartbeatWithoutOptionalFields() {
        HeartbeatData data = HeartbeatData.parse(
                "{\"clientID\":\"c1\",\"producerDataSet\":[{\"groupName\":\"pg\"}],\"extra\":{\"x\":1}}"
                        .getBytes(StandardCharsets.UTF_8));
        assertThat(data.consumerDataSet()).isEmpty();
        assertThat(data.producerDataSet()).hasSize(1);
    }

    @Test
    void rejectsMalformedBodies() {
        assertThatThrownBy(() -> HeartbeatData.parse("{\"clientID\":".getBytes(StandardCharsets.UTF_8)))
                .isInstanceOf(JsonBodyException.class);
        assertThatThrownBy(() -> HeartbeatData.parse("{}".getBytes(StandardCharsets.UTF_8)))
                .isInstanceOf(JsonBodyException.class).hasMessageContaining("clientID");
    }
}
