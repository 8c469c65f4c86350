package org.modmq.compat;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.rocketmq.client.consumer.DefaultMQPushConsumer;
import org.apache.rocketmq.common.message.MessageQueue;
import org.apache.rocketmq.remoting.protocol.body.ConsumerConnection;
import org.apache.rocketmq.remoting.protocol.heartbeat.MessageModel;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;
import org.modmq.testkit.process.Await;

/**
 * Committed consumer offsets survive a consumer restart and a broker restart: a group that comes
 * back gets exactly the messages produced after its last commit, none twice. Each test has its own
 * topic and group on one shared cluster.
 */
@Tag("integration")
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class BrokerOffsetsTest {

    private static final Duration DELIVERY_TIMEOUT = Duration.ofSeconds(30);

    @TempDir(cleanup = CleanupMode.ON_SUCCESS)
    static Path workDir;

    private static ModmqCluster cluster;
    private static final ClientShutdowns SHUTDOWNS = new ClientShutdowns();

    @BeforeAll
    static void startCluster() throws Exception {
        cluster = ModmqCluster.start(workDir, 1, Map.of());
    }

    @AfterAll
    static void stopCluster() {
        SHUTDOWNS.close();
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    void consumerRestartResumesAfterCommittedOffset() throws Exception {
        cluster.createTopic("ResumeConsumer", 2);
        List<String> before = consumeAll("ResumeConsumer", "cg_resume", 10);

        List<String> after = cluster.produce("ResumeConsumer", "T", 5);
        List<String> second = consume("ResumeConsumer", "cg_resume", 5);

        assertThat(second).containsExactlyInAnyOrderElementsOf(after).doesNotContainAnyElementsOf(before);
    }

    @Test
    void brokerRestartKeepsCommittedOffsets() throws Exception {
        cluster.createTopic("ResumeBroker", 2);
        List<String> before = consumeAll("ResumeBroker", "cg_restart", 10);

        cluster.restartBroker();
        List<String> after = cluster.produce("ResumeBroker", "T", 5);
        List<String> second = consume("ResumeBroker", "cg_restart", 5);

        assertThat(second).containsExactlyInAnyOrderElementsOf(after).doesNotContainAnyElementsOf(before);
    }

    /** Produces {@code count} messages, consumes them with {@code group}, and stops the consumer (which commits). */
    private List<String> consumeAll(String topic, String group, int count) throws Exception {
        List<String> sent = cluster.produce(topic, "T", count);
        List<String> got = consume(topic, group, count);
        assertThat(got).containsExactlyInAnyOrderElementsOf(sent);
        return got;
    }

    /**
     * Consumes until {@code count} messages arrived and the consumer's offsets reached the queue ends
     * (so nothing more can come), then stops the consumer, whose shutdown commits those offsets and
     * unregisters it before it spends seconds closing connections; the rest of the shutdown runs in
     * the background once the broker holds the offsets and no longer lists the client.
     */
    private List<String> consume(String topic, String group, int count) throws Exception {
        StockClients.Received received = new StockClients.Received();
        DefaultMQPushConsumer consumer = StockClients.pushConsumer(cluster.namesrvAddr(), group, topic, "*",
                MessageModel.CLUSTERING, received);
        String clientId = consumer.getDefaultMQPushConsumerImpl().getmQClientFactory().getClientId();
        Map<MessageQueue, Long> ends = cluster.queueEnds(topic);
        try {
            Await.until(count + " messages for " + group, DELIVERY_TIMEOUT, () -> received.size() >= count);
            Await.until(group + " consumed to the end of " + topic, DELIVERY_TIMEOUT,
                    () -> StockClients.consumedUpTo(consumer, ends));
        } finally {
            SHUTDOWNS.start(consumer::shutdown);
        }
        Await.until(group + " offsets committed up to the end of " + topic, DELIVERY_TIMEOUT,
                () -> committed(group, topic).equals(ends));
        Await.until(clientId + " gone from " + group, DELIVERY_TIMEOUT, () -> !online(group, clientId));
        assertThat(received.size()).isEqualTo(count);
        return received.bodies();
    }

    private Map<MessageQueue, Long> committed(String group, String topic) {
        try {
            return cluster.committedOffsets(group, topic);
        } catch (Exception e) {
            return Map.of();
        }
    }

    /** Whether the broker lists {@code clientId} in {@code group} (206 CONSUMER_NOT_ONLINE counts as no). */
    private boolean online(String group, String clientId) {
        try {
            ConsumerConnection connection = cluster.admin().ext().examineConsumerConnectionInfo(group);
            return connection.getConnectionSet().stream().anyMatch(c -> c.getClientId().equals(clientId));
        } catch (Exception e) {
            return false;
        }
    }
}
