package org.modmq.compat;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.rocketmq.client.consumer.DefaultMQPushConsumer;
import org.apache.rocketmq.client.exception.MQClientException;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.client.producer.SendStatus;
import org.apache.rocketmq.remoting.protocol.heartbeat.MessageModel;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;
import org.modmq.testkit.process.Await;
import org.modmq.testkit.process.ChildProcess;

/**
 * A broker registered with two name servers; clients configured with both keep working when one
 * of them is stopped.
 */
@Tag("integration")
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class TwoNameServersTest {

    @TempDir(cleanup = CleanupMode.ON_SUCCESS)
    Path workDir;

    @Test
    void clientsKeepWorkingWithOneNameServerStopped() throws Exception {
        try (ModmqCluster cluster = ModmqCluster.start(workDir, 2, Map.of())) {
            cluster.createTopic("TwoNs", 2);
            for (ChildProcess namesrv : cluster.namesrvs()) {
                try (StockAdmin single = StockAdmin.start(namesrv.address())) {
                    assertThat(single.ext().examineTopicRouteInfo("TwoNs").getQueueDatas()).hasSize(1);
                }
            }

            cluster.namesrvs().get(0).stop(Duration.ofSeconds(10));

            // Stock 5.3.3 behaviour, not a server matter: a name-server request goes to the next
            // address of the client's list (round robin from a random start) and fails outright when
            // that one does not connect ("connect to null failed"); the next request tries the other
            // address, and once connected the client instance sticks to it. A fresh client may thus
            // lose its first route lookup to the stopped name server - for a push consumer that is
            // its start(). So the producer starts first and retries its route lookup until it has a
            // route, and the consumer then shares its client instance (same instanceName).
            String instance = StockClients.instanceName("two-ns");
            DefaultMQProducer producer = StockClients.producer(cluster.namesrvAddr(), "pg_two_ns", instance);
            DefaultMQPushConsumer consumer = null;
            StockClients.Received received = new StockClients.Received();
            try {
                Await.until("producer route to TwoNs through the live name server", Duration.ofSeconds(20),
                        () -> hasRoute(producer, "TwoNs"));
                consumer = StockClients.pushConsumer(cluster.namesrvAddr(), "cg_two_ns", "TwoNs", "*",
                        MessageModel.CLUSTERING, received, instance);
                for (int i = 0; i < 5; i++) {
                    assertThat(producer.send(StockClients.message("TwoNs", "T", "k" + i, "two-ns-" + i))
                            .getSendStatus()).isEqualTo(SendStatus.SEND_OK);
                }
                Await.until("5 messages", Duration.ofSeconds(30), () -> received.size() >= 5);
                assertThat(received.bodies()).containsExactlyInAnyOrderElementsOf(
                        List.of("two-ns-0", "two-ns-1", "two-ns-2", "two-ns-3", "two-ns-4"));
            } finally {
                DefaultMQPushConsumer started = consumer;
                StockClients.shutdownAll(producer::shutdown, () -> {
                    if (started != null) {
                        started.shutdown();
                    }
                });
            }
        }
    }

    private static boolean hasRoute(DefaultMQProducer producer, String topic) {
        try {
            return producer.fetchPublishMessageQueues(topic).size() == 2;
        } catch (MQClientException e) {
            return false;
        }
    }
}
