package org.modmq.compat;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.rocketmq.client.consumer.DefaultMQPushConsumer;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.client.producer.SendResult;
import org.apache.rocketmq.client.producer.SendStatus;
import org.apache.rocketmq.common.TopicConfig;
import org.apache.rocketmq.common.message.MessageQueue;
import org.apache.rocketmq.remoting.protocol.heartbeat.MessageModel;
import org.apache.rocketmq.remoting.protocol.route.BrokerData;
import org.apache.rocketmq.remoting.protocol.route.TopicRouteData;
import org.apache.rocketmq.remoting.protocol.subscription.SubscriptionGroupConfig;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.extension.TestWatcher;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;
import org.modmq.testkit.process.Await;

/**
 * Two masters with a slave each ({@link ReplicatedCluster}) under the stock 5.3.3 producer, push
 * consumer and admin: the route and a round trip, metadata reaching the slaves, a slave killed and
 * brought back, and last a master killed while its messages are unread. One cluster per concrete
 * class (which picks the master role and the replication strategy); the tests run in order because
 * the last two kill brokers, and each uses its own topic and groups.
 */
@Tag("integration")
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@Timeout(value = 90, unit = TimeUnit.SECONDS)
abstract class ReplicationScenarios {

    private static final int MESSAGES = 40;
    private static final Duration DELIVERY_TIMEOUT = Duration.ofSeconds(30);
    /** How soon the name server must drop a killed master (it does on the channel's close). */
    private static final Duration ROUTE_CHANGE_TIMEOUT = Duration.ofSeconds(15);
    /**
     * The slave fetches metadata every 10 s; the bound adds one round of its four requests and our
     * polling of three queries.
     */
    private static final Duration METADATA_DEADLINE = Duration.ofSeconds(12);

    /** Notes failed tests, so that the processes' logs outlive a failure (see {@link #stopCluster()}). */
    @RegisterExtension
    final TestWatcher failures = new TestWatcher() {
        @Override
        public void testFailed(ExtensionContext context, Throwable cause) {
            failed = true;
        }
    };

    private volatile boolean failed;
    private Path workDir;
    private ReplicatedCluster cluster;
    private DefaultMQProducer producer;
    private final ClientShutdowns shutdowns = new ClientShutdowns();

    /** {@code SYNC_MASTER} or {@code ASYNC_MASTER}. */
    abstract String masterRole();

    /** {@code pull} or {@code push}. */
    abstract String haStrategy();

    private boolean syncMaster() {
        return masterRole().equals("SYNC_MASTER");
    }

    @BeforeAll
    void startCluster(@TempDir(cleanup = CleanupMode.NEVER) Path workDir) throws Exception {
        this.workDir = workDir;
        cluster = ReplicatedCluster.start(workDir, masterRole(), haStrategy());
        producer = StockClients.producer(cluster.namesrvAddr(), "pg_ha");
        awaitEverySlaveFollowing();
    }

    @AfterAll
    void stopCluster() {
        DefaultMQProducer started = producer;
        if (started != null) {
            shutdowns.start(started::shutdown);
        }
        shutdowns.close();
        if (cluster != null) {
            cluster.close();
        }
        // A class-level temporary directory would be deleted after failed tests too (only a failure of
        // the class itself counts), so the logs and stores are deleted here, and only when all passed.
        if (!failed && workDir != null) {
            deleteTree(workDir);
        }
    }

    private static void deleteTree(Path root) {
        try (Stream<Path> paths = Files.walk(root)) {
            for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(path);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot delete " + root, e);
        }
    }

    /**
     * Until a slave has connected, a SYNC_MASTER answers SLAVE_NOT_AVAILABLE: sends one message to
     * each master until it answers SEND_OK (an ASYNC_MASTER does at once), then waits until each
     * slave's CommitLog ends where its master's does.
     */
    private void awaitEverySlaveFollowing() throws Exception {
        cluster.createTopic("HaWarmup", 1);
        for (String name : ReplicatedCluster.BROKER_NAMES) {
            MessageQueue queue = new MessageQueue("HaWarmup", name, 0);
            Await.until(name + " answering SEND_OK", ReplicatedCluster.CATCH_UP_TIMEOUT, () -> {
                try {
                    return producer.send(StockClients.message("HaWarmup", "w", "warm", "warm-up"), queue)
                            .getSendStatus() == SendStatus.SEND_OK;
                } catch (Exception e) {
                    return false;
                }
            });
            cluster.awaitSlaveCaughtUp(name, ReplicatedCluster.CATCH_UP_TIMEOUT);
        }
    }

    @Test
    @Order(1)
    void routeListsMasterAndSlaveOfBothSetsAndPushConsumerGetsEverySend() throws Exception {
        String topic = "HaRoundTrip";
        cluster.createTopic(topic, 4);

        TopicRouteData route = cluster.route(topic);
        for (String name : ReplicatedCluster.BROKER_NAMES) {
            BrokerData data = ReplicatedCluster.brokerData(route, name);
            assertThat(data).as("BrokerData of %s in %s", name, route).isNotNull();
            assertThat(data.getBrokerAddrs()).containsExactlyInAnyOrderEntriesOf(
                    Map.of(0L, cluster.masterAddr(name), 1L, cluster.slaveAddr(name)));
            assertThat(ReplicatedCluster.queueData(route, name).getReadQueueNums()).isEqualTo(4);
        }

        List<Sent> sent = send(topic, "rt", MESSAGES);
        assertThat(sent).allSatisfy(s -> assertThat(s.result().getSendStatus()).isEqualTo(SendStatus.SEND_OK));
        assertThat(brokersOf(sent)).containsExactlyInAnyOrderElementsOf(ReplicatedCluster.BROKER_NAMES);

        assertThat(consumeAll(topic, "cg_ha_roundtrip", bodies(sent), false))
                .containsExactlyInAnyOrderElementsOf(bodies(sent));
    }

    @Test
    @Order(2)
    void metadataMadeOnAMasterIsServedByItsSlaveWithinTenSeconds() throws Exception {
        String master = cluster.masterAddr("broker-a");
        String slave = cluster.slaveAddr("broker-a");
        String topic = "HaMeta";
        String group = "cg_ha_meta";
        var admin = cluster.admin().ext();
        admin.createAndUpdateTopicConfig(master, new TopicConfig(topic, 2, 2, 6));
        SubscriptionGroupConfig groupConfig = new SubscriptionGroupConfig();
        groupConfig.setGroupName(group);
        groupConfig.setRetryMaxTimes(7);
        admin.createAndUpdateSubscriptionGroupConfig(master, groupConfig);
        Await.until("route of " + topic, ReplicatedCluster.REGISTRATION_TIMEOUT, () -> cluster.route(topic) != null);
        MessageQueue queue = new MessageQueue(topic, "broker-a", 1);
        for (int i = 0; i < 3; i++) {
            assertThat(producer.send(StockClients.message(topic, "m", "meta-" + i, "meta-" + i), queue)
                    .getSendStatus()).isEqualTo(SendStatus.SEND_OK);
        }
        admin.updateConsumeOffset(master, group, queue, 3);
        long madeAt = System.nanoTime();

        Await.until("topic, group and offset on the slave " + slave, METADATA_DEADLINE, () -> {
            try {
                TopicConfig onSlave = admin.examineTopicConfig(slave, topic);
                SubscriptionGroupConfig groupOnSlave = admin.examineSubscriptionGroupConfig(slave, group);
                return onSlave != null && onSlave.getReadQueueNums() == 2
                        && groupOnSlave != null && groupOnSlave.getRetryMaxTimes() == 7
                        && cluster.queryConsumerOffset(slave, group, topic, 1) == 3;
            } catch (Exception e) {
                return false;
            }
        });
        long seenAfterMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - madeAt);
        assertThat(seenAfterMillis).as("milliseconds until the slave served the metadata").isLessThan(12_000);
    }

    @Test
    @Order(3)
    void sendsGoOnWhileASlaveIsDownAndItCatchesUpWhenBack() throws Exception {
        String topic = "HaSlaveDown";
        cluster.createTopic(topic, 4);
        cluster.killSlave("broker-a");

        SendStatus expectedOnA = syncMaster() ? SendStatus.SLAVE_NOT_AVAILABLE : SendStatus.SEND_OK;
        if (syncMaster()) {
            // The master notices the lost connection within moments; until then a send may wait for the slave.
            MessageQueue queueOnA = new MessageQueue(topic, "broker-a", 0);
            Await.until("broker-a answering SLAVE_NOT_AVAILABLE", ROUTE_CHANGE_TIMEOUT, () -> {
                try {
                    return producer.send(StockClients.message(topic, "probe", "probe", "probe"), queueOnA)
                            .getSendStatus() == SendStatus.SLAVE_NOT_AVAILABLE;
                } catch (Exception e) {
                    return false;
                }
            });
        }
        List<Sent> sent = send(topic, "down", 16);
        assertThat(sent).allSatisfy(s -> assertThat(s.result().getSendStatus()).as(s.body()).isEqualTo(
                s.result().getMessageQueue().getBrokerName().equals("broker-a") ? expectedOnA : SendStatus.SEND_OK));
        assertThat(brokersOf(sent)).containsExactlyInAnyOrderElementsOf(ReplicatedCluster.BROKER_NAMES);

        // retryAnotherBrokerWhenNotStoreOK: a status other than SEND_OK makes the stock producer resend
        // to another broker set; the first copy stays stored on broker-a.
        DefaultMQProducer retrying = StockClients.producer(cluster.namesrvAddr(), "pg_ha_retry");
        try {
            retrying.setRetryAnotherBrokerWhenNotStoreOK(true);
            long aBefore = cluster.commitLogMaxOffset(cluster.masterAddr("broker-a"));
            List<SendResult> results = new ArrayList<>();
            for (int i = 0; i < 8; i++) {
                results.add(retrying.send(StockClients.message(topic, "retry", "retry-" + i, topic + "-retry-" + i)));
            }
            assertThat(results).allSatisfy(r -> assertThat(r.getSendStatus()).isEqualTo(SendStatus.SEND_OK));
            Set<String> brokers = results.stream().map(r -> r.getMessageQueue().getBrokerName())
                    .collect(Collectors.toSet());
            if (syncMaster()) {
                assertThat(brokers).containsExactly("broker-b");
            } else {
                assertThat(brokers).containsExactlyInAnyOrderElementsOf(ReplicatedCluster.BROKER_NAMES);
            }
            assertThat(cluster.commitLogMaxOffset(cluster.masterAddr("broker-a"))).isGreaterThan(aBefore);
        } finally {
            shutdowns.start(retrying::shutdown);
        }

        cluster.restartSlave("broker-a");
        cluster.awaitSlaveCaughtUp("broker-a", ReplicatedCluster.CATCH_UP_TIMEOUT);
        MessageQueue queueOnA = new MessageQueue(topic, "broker-a", 1);
        Await.until("broker-a answering SEND_OK again", ReplicatedCluster.CATCH_UP_TIMEOUT, () -> {
            try {
                return producer.send(StockClients.message(topic, "back", "back", "back"), queueOnA)
                        .getSendStatus() == SendStatus.SEND_OK;
            } catch (Exception e) {
                return false;
            }
        });
        cluster.awaitSlaveCaughtUp("broker-a", ReplicatedCluster.CATCH_UP_TIMEOUT);
    }

    @Test
    @Order(4)
    void consumersFinishTheTopicFromTheSlaveOfAKilledMaster() throws Exception {
        String topic = "HaMasterDown";
        String group = "cg_ha_failover";
        cluster.createTopic(topic, 4);
        List<Sent> sent = send(topic, "fo", MESSAGES);
        assertThat(sent).allSatisfy(s -> assertThat(s.result().getSendStatus()).isEqualTo(SendStatus.SEND_OK));
        assertThat(brokersOf(sent)).contains("broker-a");
        if (!syncMaster()) {
            // An ASYNC_MASTER's SEND_OK promises nothing about the slave; a SYNC_MASTER's does, so
            // there the master is killed at once.
            cluster.awaitSlaveCaughtUp("broker-a", ReplicatedCluster.CATCH_UP_TIMEOUT);
        }
        cluster.killMaster("broker-a");
        Await.until("route of " + topic + " with broker-a's slave only", ROUTE_CHANGE_TIMEOUT, () -> {
            TopicRouteData route = cluster.route(topic);
            BrokerData data = route == null ? null : ReplicatedCluster.brokerData(route, "broker-a");
            return data != null && data.getBrokerAddrs().equals(Map.of(1L, cluster.slaveAddr("broker-a")));
        });

        assertThat(consumeAll(topic, group, bodies(sent), true)).containsExactlyInAnyOrderElementsOf(bodies(sent));

        // The consumer's shutdown committed its offsets to the slave, the only broker of set broker-a.
        String slave = cluster.slaveAddr("broker-a");
        for (int queueId = 0; queueId < 4; queueId++) {
            MessageQueue queue = new MessageQueue(topic, "broker-a", queueId);
            long end = cluster.clientApi().getMaxOffset(slave, queue, 3_000);
            int id = queueId;
            Await.until("offset of " + queue + " committed on the slave", DELIVERY_TIMEOUT, () -> {
                try {
                    return cluster.queryConsumerOffset(slave, group, topic, id) == end;
                } catch (Exception e) {
                    return false;
                }
            });
        }
    }

    /**
     * Starts a clustering push consumer in a new group from the first offset, waits until it was given
     * every one of {@code expected}, shuts it down and returns every body it was given, duplicates
     * included. With {@code commitNow} the shutdown (which commits the offsets) is waited for;
     * otherwise it runs in the background.
     */
    private List<String> consumeAll(String topic, String group, List<String> expected, boolean commitNow)
            throws Exception {
        StockClients.Received received = new StockClients.Received();
        DefaultMQPushConsumer consumer = StockClients.pushConsumer(cluster.namesrvAddr(), group, topic, "*",
                MessageModel.CLUSTERING, received);
        try {
            Set<String> wanted = Set.copyOf(expected);
            try {
                Await.until(expected.size() + " messages of " + topic + " for " + group, DELIVERY_TIMEOUT,
                        () -> new HashSet<>(received.bodies()).containsAll(wanted));
            } catch (AssertionError e) {
                Set<String> missing = new HashSet<>(wanted);
                received.bodies().forEach(missing::remove);
                throw new AssertionError(e.getMessage() + "; missing " + missing.size() + ": " + missing
                        + "; queues assigned: " + StockClients.assignedQueues(consumer, topic), e);
            }
        } finally {
            if (commitNow) {
                consumer.shutdown();
            } else {
                shutdowns.start(consumer::shutdown);
            }
        }
        return received.bodies();
    }

    /** Sends {@code count} messages with unique bodies and keys through the shared producer. */
    private List<Sent> send(String topic, String tag, int count) throws Exception {
        List<Sent> sent = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            String body = topic + "-" + tag + "-" + i;
            sent.add(new Sent(body, producer.send(StockClients.message(topic, tag, tag + "-key-" + i, body))));
        }
        return sent;
    }

    private static List<String> bodies(List<Sent> sent) {
        return sent.stream().map(Sent::body).toList();
    }

    private static Set<String> brokersOf(List<Sent> sent) {
        return sent.stream().map(s -> s.result().getMessageQueue().getBrokerName()).collect(Collectors.toSet());
    }

    /** One message sent and the producer's answer. */
    private record Sent(String body, SendResult result) {
        Sent {
            Objects.requireNonNull(body, "body");
            Objects.requireNonNull(result, "result");
        }
    }
}
