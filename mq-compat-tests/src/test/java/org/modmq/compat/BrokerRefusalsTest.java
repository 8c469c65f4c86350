package org.modmq.compat;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import org.apache.rocketmq.client.exception.MQBrokerException;
import org.apache.rocketmq.client.exception.MQClientException;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.client.producer.SendResult;
import org.apache.rocketmq.client.producer.SendStatus;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.common.TopicConfig;
import org.apache.rocketmq.remoting.protocol.ResponseCode;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;

/**
 * What the broker refuses, as the stock 5.3.3 client and admin see it against the distribution: a body
 * above {@code maxMessageSize} gets MESSAGE_ILLEGAL with RocketMQ's remark while a body of exactly
 * {@code maxMessageSize} is stored; UPDATE_BROKER_CONFIG of a key outside the run-time list gets
 * NO_PERMISSION; a system topic name is refused for creation.
 */
@Tag("integration")
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class BrokerRefusalsTest {

    private static final int MAX = 64 * 1024;

    @TempDir(cleanup = CleanupMode.ON_SUCCESS)
    static Path workDir;

    private static ModmqCluster cluster;

    @BeforeAll
    static void startCluster() throws Exception {
        cluster = ModmqCluster.start(workDir, 1, Map.of("maxMessageSize", Integer.toString(MAX)));
        cluster.createTopic("RefusalTopic", 1);
    }

    @AfterAll
    static void stopCluster() {
        if (cluster != null) {
            cluster.close();
        }
    }

    private static Message message(int bodyBytes) {
        byte[] body = new byte[bodyBytes];
        ThreadLocalRandom.current().nextBytes(body);
        return new Message("RefusalTopic", "T", body);
    }

    @Test
    void theStockProducerSeesRocketMqsAnswerToAnOversizedBody() throws Exception {
        DefaultMQProducer producer = StockClients.producer(cluster.namesrvAddr(), "pg_refusals");
        try {
            // The client's own check (its maxMessageSize, 4 MiB) passes, and it sends the body as it is.
            producer.setCompressMsgBodyOverHowmuch(Integer.MAX_VALUE);
            producer.setRetryTimesWhenSendFailed(0);
            assertThatThrownBy(() -> producer.send(message(MAX + 1)))
                    .isInstanceOfSatisfying(MQBrokerException.class, e -> {
                        assertThat(e.getResponseCode()).isEqualTo(ResponseCode.MESSAGE_ILLEGAL);
                        assertThat(e.getErrorMessage()).contains("msg body length limit " + MAX + "B");
                    });
            SendResult exact = producer.send(message(MAX));
            assertThat(exact.getSendStatus()).isEqualTo(SendStatus.SEND_OK);
        } finally {
            StockClients.shutdownAll(producer::shutdown);
        }
    }

    @Test
    void theStockAdminCannotChangeStartUpKeysNorCreateSystemTopics() throws Exception {
        Properties paths = new Properties();
        paths.setProperty("storePathRootDir", workDir.resolve("elsewhere").toString());
        assertThatThrownBy(() -> cluster.admin().ext().updateBrokerConfig(cluster.brokerAddr(), paths))
                .isInstanceOfSatisfying(MQBrokerException.class, e -> {
                    assertThat(e.getResponseCode()).isEqualTo(ResponseCode.NO_PERMISSION);
                    assertThat(e.getErrorMessage()).contains("storePathRootDir");
                });
        Properties runtime = new Properties();
        runtime.setProperty("slaveReadEnable", "true");
        cluster.admin().ext().updateBrokerConfig(cluster.brokerAddr(), runtime);
        assertThat(cluster.admin().ext().getBrokerConfig(cluster.brokerAddr()).getProperty("slaveReadEnable"))
                .isEqualTo("true");

        TopicConfig dlq = new TopicConfig("%DLQ%mine", 1, 1, 6);
        assertThatThrownBy(() -> cluster.admin().ext().createAndUpdateTopicConfig(cluster.brokerAddr(), dlq))
                .isInstanceOfSatisfying(MQClientException.class, e -> {
                    assertThat(e.getResponseCode()).isEqualTo(ResponseCode.INVALID_PARAMETER);
                    assertThat(e.getErrorMessage()).contains("The topic[%DLQ%mine] is conflict with system topic.");
                });
    }
}
