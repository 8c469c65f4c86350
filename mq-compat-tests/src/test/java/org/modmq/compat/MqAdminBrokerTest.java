package org.modmq.compat;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.rocketmq.client.consumer.DefaultMQPushConsumer;
import org.apache.rocketmq.remoting.protocol.heartbeat.MessageModel;
import org.apache.rocketmq.remoting.protocol.route.TopicRouteData;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Disabled;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The stock {@code mqadmin} command line against a name server and a broker from the distribution:
 * updateTopic, topicRoute, topicList, clusterList, topicStatus, brokerStatus, consumerProgress.
 */
@Tag("integration")
@Disabled("needs mq-broker")
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class MqAdminBrokerTest {

    @TempDir
    static Path workDir;

    private static ModmqCluster cluster;

    @BeforeAll
    static void startCluster() throws Exception {
        cluster = ModmqCluster.start(workDir, 1, Map.of("autoCreateTopicEnable", "false"));
    }

    @AfterAll
    static void stopCluster() {
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    void updateTopicThenRouteListAndStatus() throws Exception {
        MqAdmin.Result update = mqadmin("updateTopic", "-c", cluster.clusterName(), "-t", "AdminTopic",
                "-r", "3", "-w", "3");
        assertThat(update.exitStatus()).as(update.output()).isZero();
        assertThat(update.output()).contains("create topic to " + cluster.brokerAddr() + " success");
        Await.until("route of AdminTopic", ModmqCluster.REGISTRATION_TIMEOUT, () -> cluster.route("AdminTopic") != null);

        MqAdmin.Result route = mqadmin("topicRoute", "-t", "AdminTopic");
        assertThat(route.exitStatus()).as(route.output()).isZero();
        TopicRouteData printed = TopicRouteData.fromJson(route.output().substring(route.output().indexOf('{')),
                TopicRouteData.class);
        assertThat(printed.getQueueDatas()).singleElement().satisfies(queue -> {
            assertThat(queue.getReadQueueNums()).isEqualTo(3);
            assertThat(queue.getWriteQueueNums()).isEqualTo(3);
            assertThat(queue.getPerm()).isEqualTo(6);
        });

        MqAdmin.Result list = mqadmin("topicList");
        assertThat(list.exitStatus()).as(list.output()).isZero();
        assertThat(list.lines()).contains("AdminTopic");

        BrokerMessagingTest.produce(cluster.namesrvAddr(), "AdminTopic", "T", 6, "pg_admin");
        MqAdmin.Result status = mqadmin("topicStatus", "-t", "AdminTopic");
        assertThat(status.exitStatus()).as(status.output()).isZero();
        // One line per queue: broker name, queue id, min offset, max offset, last update time.
        List<String> queueLines = status.lines().stream().filter(line -> line.startsWith(cluster.brokerName())).toList();
        assertThat(queueLines).hasSize(3);
        long total = queueLines.stream().mapToLong(line -> Long.parseLong(line.split("\\s+")[3])).sum();
        assertThat(total).isEqualTo(6);
    }

    @Test
    void clusterListAndBrokerStatusShowTheBroker() {
        MqAdmin.Result clusters = mqadmin("clusterList");
        assertThat(clusters.exitStatus()).as(clusters.output()).isZero();
        assertThat(clusters.lines()).filteredOn(line -> line.startsWith(cluster.clusterName())).singleElement()
                .satisfies(line -> assertThat(line).contains(cluster.brokerName(), cluster.brokerAddr(), "V5_3_3"));

        MqAdmin.Result broker = mqadmin("brokerStatus", "-b", cluster.brokerAddr());
        assertThat(broker.exitStatus()).as(broker.output()).isZero();
        assertThat(broker.output()).contains("brokerVersionDesc", "putTps", "getTransferredTps");
    }

    @Test
    void consumerProgressShowsCommittedOffsets() throws Exception {
        cluster.createTopic("ProgressTopic", 2);
        List<String> sent = BrokerMessagingTest.produce(cluster.namesrvAddr(), "ProgressTopic", "T", 8, "pg_progress");
        StockClients.Received received = new StockClients.Received();
        DefaultMQPushConsumer consumer = StockClients.pushConsumer(cluster.namesrvAddr(), "cg_progress", "ProgressTopic",
                "*", MessageModel.CLUSTERING, received);
        try {
            Await.until("8 messages", Duration.ofSeconds(30), () -> received.size() >= 8);
            assertThat(received.bodies()).containsExactlyInAnyOrderElementsOf(sent);
            MqAdmin.Result progress = Await.value("consumerProgress with diff 0", Duration.ofSeconds(30), () -> {
                MqAdmin.Result run = mqadmin("consumerProgress", "-g", "cg_progress");
                return run.exitStatus() == 0 && run.output().contains("Diff Total: 0") ? run : null;
            });
            assertThat(progress.lines()).filteredOn(line -> line.startsWith("ProgressTopic")).hasSize(2);
        } finally {
            consumer.shutdown();
        }
    }

    private static MqAdmin.Result mqadmin(String... args) {
        String[] withNamesrv = java.util.Arrays.copyOf(args, args.length + 2);
        withNamesrv[args.length] = "-n";
        withNamesrv[args.length + 1] = cluster.namesrvAddr();
        return MqAdmin.run(cluster.workDir(), withNamesrv);
    }
}
