package org.modmq.compat;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.rocketmq.client.consumer.DefaultMQPushConsumer;
import org.apache.rocketmq.remoting.protocol.heartbeat.MessageModel;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Disabled;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Committed consumer offsets survive a consumer restart and a broker restart: a group that comes
 * back gets exactly the messages produced after its last commit, none twice.
 */
@Tag("integration")
@Disabled("needs mq-broker")
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class BrokerOffsetsTest {

    private static final Duration DELIVERY_TIMEOUT = Duration.ofSeconds(30);

    @TempDir
    Path workDir;

    private ModmqCluster cluster;

    @BeforeEach
    void startCluster() throws Exception {
        cluster = ModmqCluster.start(workDir, 1, Map.of());
    }

    @AfterEach
    void stopCluster() {
        cluster.close();
    }

    @Test
    void consumerRestartResumesAfterCommittedOffset() throws Exception {
        cluster.createTopic("ResumeConsumer", 2);
        List<String> before = consumeAll("ResumeConsumer", "cg_resume", 10);

        List<String> after = BrokerMessagingTest.produce(cluster.namesrvAddr(), "ResumeConsumer", "T", 5, "pg_resume");
        List<String> second = consume("ResumeConsumer", "cg_resume", 5);

        assertThat(second).containsExactlyInAnyOrderElementsOf(after).doesNotContainAnyElementsOf(before);
    }

    @Test
    void brokerRestartKeepsCommittedOffsets() throws Exception {
        cluster.createTopic("ResumeBroker", 2);
        List<String> before = consumeAll("ResumeBroker", "cg_restart", 10);

        cluster.restartBroker();
        List<String> after = BrokerMessagingTest.produce(cluster.namesrvAddr(), "ResumeBroker", "T", 5, "pg_restart");
        List<String> second = consume("ResumeBroker", "cg_restart", 5);

        assertThat(second).containsExactlyInAnyOrderElementsOf(after).doesNotContainAnyElementsOf(before);
    }

    /** Produces {@code count} messages, consumes them with {@code group}, and shuts the consumer down (which commits). */
    private List<String> consumeAll(String topic, String group, int count) throws Exception {
        List<String> sent = BrokerMessagingTest.produce(cluster.namesrvAddr(), topic, "T", count, "pg_" + group);
        List<String> got = consume(topic, group, count);
        assertThat(got).containsExactlyInAnyOrderElementsOf(sent);
        return got;
    }

    /**
     * Consumes until {@code count} messages arrived, then waits a bounded time for more (which would be
     * redeliveries) by checking that the consume offsets reached the queue ends, and shuts down.
     */
    private List<String> consume(String topic, String group, int count) throws Exception {
        StockClients.Received received = new StockClients.Received();
        DefaultMQPushConsumer consumer = StockClients.pushConsumer(cluster.namesrvAddr(), group, topic, "*",
                MessageModel.CLUSTERING, received);
        try {
            Await.until(count + " messages for " + group, DELIVERY_TIMEOUT, () -> received.size() >= count);
            Await.until(group + " offsets committed up to the end of " + topic, DELIVERY_TIMEOUT,
                    () -> fullyCommitted(topic, group));
        } finally {
            consumer.shutdown();
        }
        assertThat(received.size()).isEqualTo(count);
        return received.bodies();
    }

    private boolean fullyCommitted(String topic, String group) {
        try {
            return cluster.admin().ext().examineConsumeStats(group).getOffsetTable().entrySet().stream()
                    .filter(entry -> entry.getKey().getTopic().equals(topic))
                    .allMatch(entry -> entry.getValue().getConsumerOffset() == entry.getValue().getBrokerOffset());
        } catch (Exception e) {
            return false;
        }
    }
}
