package org.modmq.compat;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.rocketmq.client.consumer.DefaultMQPushConsumer;
import org.apache.rocketmq.common.message.MessageQueue;
import org.apache.rocketmq.remoting.protocol.admin.OffsetWrapper;
import org.apache.rocketmq.remoting.protocol.heartbeat.MessageModel;
import org.apache.rocketmq.remoting.protocol.route.TopicRouteData;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;
import org.modmq.testkit.process.Await;

/**
 * The stock {@code mqadmin} command line against a name server and a broker from the distribution:
 * updateTopic, topicRoute, topicList, clusterList, topicStatus, brokerStatus, consumerProgress.
 * Independent commands run side by side (each is a JVM that mostly waits).
 */
@Tag("integration")
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class MqAdminBrokerTest {

    @TempDir(cleanup = CleanupMode.ON_SUCCESS)
    static Path workDir;

    private static ModmqCluster cluster;
    private static final ClientShutdowns SHUTDOWNS = new ClientShutdowns();

    @BeforeAll
    static void startCluster() throws Exception {
        // Topics exist only when created: updateTopic is what makes AdminTopic routable.
        cluster = ModmqCluster.start(workDir, 1, Map.of("autoCreateTopicEnable", "false"));
    }

    @AfterAll
    static void stopCluster() {
        SHUTDOWNS.close();
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
        // Round-robin over 3 queues: 2 messages on each.
        cluster.produce("AdminTopic", "T", 6);

        List<MqAdmin.Result> runs = mqadminAll(new String[] {"topicRoute", "-t", "AdminTopic"},
                new String[] {"topicList"}, new String[] {"topicStatus", "-t", "AdminTopic"});

        MqAdmin.Result route = runs.get(0);
        assertThat(route.exitStatus()).as(route.output()).isZero();
        TopicRouteData printed = TopicRouteData.fromJson(route.output().substring(route.output().indexOf('{')),
                TopicRouteData.class);
        assertThat(printed.getQueueDatas()).singleElement().satisfies(queue -> {
            assertThat(queue.getBrokerName()).isEqualTo(cluster.brokerName());
            assertThat(queue.getReadQueueNums()).isEqualTo(3);
            assertThat(queue.getWriteQueueNums()).isEqualTo(3);
            assertThat(queue.getPerm()).isEqualTo(6);
        });
        assertThat(printed.getBrokerDatas()).singleElement()
                .satisfies(broker -> assertThat(broker.getBrokerAddrs()).containsEntry(0L, cluster.brokerAddr()));

        MqAdmin.Result list = runs.get(1);
        assertThat(list.exitStatus()).as(list.output()).isZero();
        assertThat(list.lines()).contains("AdminTopic");

        MqAdmin.Result status = runs.get(2);
        assertThat(status.exitStatus()).as(status.output()).isZero();
        // One line per queue: broker name, queue id, min offset, max offset, last update time.
        List<String[]> queueLines = status.lines().stream().filter(line -> line.startsWith(cluster.brokerName()))
                .map(line -> line.split("\\s+")).toList();
        assertThat(queueLines).as(status.output()).hasSize(3);
        assertThat(queueLines).extracting(columns -> columns[1]).containsExactlyInAnyOrder("0", "1", "2");
        assertThat(queueLines).allSatisfy(columns -> {
            assertThat(columns[2]).as("min offset").isEqualTo("0");
            assertThat(columns[3]).as("max offset").isEqualTo("2");
            assertThat(columns).as("last update time").hasSizeGreaterThan(4);
        });
    }

    @Test
    void clusterListAndBrokerStatusShowTheBroker() {
        List<MqAdmin.Result> runs = mqadminAll(new String[] {"clusterList"},
                new String[] {"brokerStatus", "-b", cluster.brokerAddr()});

        MqAdmin.Result clusters = runs.get(0);
        assertThat(clusters.exitStatus()).as(clusters.output()).isZero();
        assertThat(clusters.lines()).filteredOn(line -> line.startsWith(cluster.clusterName())).singleElement()
                .satisfies(line -> assertThat(line.split("\\s+")).startsWith(cluster.clusterName(), cluster.brokerName(),
                        "0", cluster.brokerAddr(), "V5_3_3"));

        MqAdmin.Result broker = runs.get(1);
        assertThat(broker.exitStatus()).as(broker.output()).isZero();
        assertThat(broker.lines()).contains("brokerVersionDesc               : V5_3_3");
        assertThat(broker.output()).contains("putTps", "getTransferredTps", "commitLogMaxOffset");
    }

    @Test
    void consumerProgressShowsCommittedOffsets() throws Exception {
        cluster.createTopic("ProgressTopic", 2);
        List<String> sent = cluster.produce("ProgressTopic", "T", 8);
        StockClients.Received received = new StockClients.Received();
        DefaultMQPushConsumer consumer = StockClients.pushConsumer(cluster.namesrvAddr(), "cg_progress", "ProgressTopic",
                "*", MessageModel.CLUSTERING, received);
        Map<MessageQueue, Long> ends = cluster.queueEnds("ProgressTopic");
        try {
            Await.until("8 messages", Duration.ofSeconds(30), () -> received.size() >= 8);
            assertThat(received.bodies()).containsExactlyInAnyOrderElementsOf(sent);
            Await.until("cg_progress consumed 4 + 4", Duration.ofSeconds(30), () -> StockClients.consumedUpTo(consumer, ends));
        } finally {
            // Its shutdown commits the offsets at once (the periodic commit starts only 10 s after start).
            SHUTDOWNS.start(consumer::shutdown);
        }
        Await.until("cg_progress committed 4 + 4", Duration.ofSeconds(30), () -> committed("cg_progress",
                "ProgressTopic") == 8);
        MqAdmin.Result progress = mqadmin("consumerProgress", "-g", "cg_progress");
        assertThat(progress.exitStatus()).as(progress.output()).isZero();
        assertThat(progress.output()).contains("Diff Total: 0");
        // #Topic #Broker Name #QID #Broker Offset #Consumer Offset #Diff ...
        List<String[]> queueLines = progress.lines().stream().filter(line -> line.startsWith("ProgressTopic "))
                .map(line -> line.split("\\s+")).toList();
        assertThat(queueLines).as(progress.output()).hasSize(2).allSatisfy(columns -> {
            assertThat(columns[1]).isEqualTo(cluster.brokerName());
            assertThat(columns[3]).as("broker offset").isEqualTo("4");
            assertThat(columns[4]).as("consumer offset").isEqualTo("4");
            assertThat(columns[5]).as("diff").isEqualTo("0");
        });
    }

    /** The sum of the group's consumer offsets over the topic's queues, or -1 while unknown. */
    private static long committed(String group, String topic) {
        try {
            return cluster.admin().ext().examineConsumeStats(group).getOffsetTable().entrySet().stream()
                    .filter(entry -> entry.getKey().getTopic().equals(topic)).map(Map.Entry::getValue)
                    .mapToLong(OffsetWrapper::getConsumerOffset).sum();
        } catch (Exception e) {
            return -1;
        }
    }

    private static MqAdmin.Result mqadmin(String... args) {
        return MqAdmin.run(cluster.workDir(), withNamesrv(args));
    }

    private static List<MqAdmin.Result> mqadminAll(String[]... commands) {
        return MqAdmin.runAll(cluster.workDir(), Arrays.stream(commands).map(MqAdminBrokerTest::withNamesrv).toList());
    }

    private static String[] withNamesrv(String[] args) {
        String[] withNamesrv = Arrays.copyOf(args, args.length + 2);
        withNamesrv[args.length] = "-n";
        withNamesrv[args.length + 1] = cluster.namesrvAddr();
        return withNamesrv;
    }
}
