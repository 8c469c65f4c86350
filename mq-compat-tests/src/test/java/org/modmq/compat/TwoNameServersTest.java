package org.modmq.compat;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.rocketmq.client.consumer.DefaultMQPushConsumer;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.client.producer.SendStatus;
import org.apache.rocketmq.remoting.protocol.heartbeat.MessageModel;
import org.junit.jupiter.api.Disabled;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A broker registered with two name servers; clients configured with both keep working when one
 * of them is stopped.
 */
@Tag("integration")
@Disabled("needs mq-broker")
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class TwoNameServersTest {

    @TempDir
    Path workDir;

    @Test
    void clientsKeepWorkingWithOneNameServerStopped() throws Exception {
        try (ModmqCluster cluster = ModmqCluster.start(workDir, 2, Map.of())) {
            cluster.createTopic("TwoNs", 2);
            for (ModmqProcess namesrv : cluster.namesrvs()) {
                try (StockAdmin single = StockAdmin.start(namesrv.address())) {
                    assertThat(single.ext().examineTopicRouteInfo("TwoNs").getQueueDatas()).hasSize(1);
                }
            }

            cluster.namesrvs().get(0).stop(Duration.ofSeconds(10));

            StockClients.Received received = new StockClients.Received();
            DefaultMQPushConsumer consumer = StockClients.pushConsumer(cluster.namesrvAddr(), "cg_two_ns", "TwoNs", "*",
                    MessageModel.CLUSTERING, received);
            DefaultMQProducer producer = StockClients.producer(cluster.namesrvAddr(), "pg_two_ns");
            try {
                for (int i = 0; i < 5; i++) {
                    assertThat(producer.send(BrokerMessagingTest.message("TwoNs", "T", "k" + i, "two-ns-" + i))
                            .getSendStatus()).isEqualTo(SendStatus.SEND_OK);
                }
                Await.until("5 messages", Duration.ofSeconds(30), () -> received.size() >= 5);
                assertThat(received.bodies()).containsExactlyInAnyOrderElementsOf(
                        List.of("two-ns-0", "two-ns-1", "two-ns-2", "two-ns-3", "two-ns-4"));
            } finally {
                producer.shutdown();
                consumer.shutdown();
            }
        }
    }
}
