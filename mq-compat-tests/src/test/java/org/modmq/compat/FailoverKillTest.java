package org.modmq.compat;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.rocketmq.client.consumer.DefaultMQPushConsumer;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.remoting.protocol.heartbeat.MessageModel;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;
import org.modmq.testkit.process.Await;

/**
 * {@code kill -9} of the master of a controller-mode broker set ({@link ControllerCluster},
 * {@code allAckInSyncStateSet=true}) while a stock 5.3.3 producer sync-sends from four threads and a push
 * consumer group reads: a replica becomes master (id 0 at the name server, another address), the producer
 * resumes on it, the consumer group goes on consuming there, and every acknowledged message is readable
 * from it. Once with each replication strategy; with {@code push} the killed master is also restarted and
 * must follow the new one with the same bytes and epochs ({@link FailoverRejoinTest} does that in depth for
 * {@code pull}).
 */
@Tag("integration")
@Timeout(value = 240, unit = TimeUnit.SECONDS)
class FailoverKillTest {

    private static final String TOPIC = "FailoverKill";
    private static final int QUEUES = 4;
    /** {@link Distribution#brokerConf}'s {@code mappedFileSizeCommitLog}. */
    private static final int SEGMENT_SIZE = 16 * 1024 * 1024;
    private static final Duration ELECTION_TIMEOUT = Duration.ofSeconds(30);
    /** The producer's route poll is 1 s; sends to the dead master fail and are retried meanwhile. */
    private static final Duration RESUME_TIMEOUT = Duration.ofSeconds(60);

    @TempDir(cleanup = CleanupMode.ON_SUCCESS)
    Path workDir;

    @Test
    void pullReplicaTakesOverWithEveryAcknowledgedMessageAndTheConsumerGroup() throws Exception {
        try (ControllerCluster cluster = ControllerCluster.start(workDir, "pull", Map.of())) {
            killMasterUnderLoad(cluster, "pull");
        }
    }

    @Test
    void pushReplicaTakesOverAndTheKilledMasterRejoinsAsAnIdenticalReplica() throws Exception {
        try (ControllerCluster cluster = ControllerCluster.start(workDir, "push", Map.of())) {
            String[] masters = killMasterUnderLoad(cluster, "push");
            cluster.restartBroker(masters[0]);
            FailoverChecks.assertFollowsByteIdentical(cluster, masters[0], masters[1], SEGMENT_SIZE);
        }
    }

    /** The scenario; returns the old and the new master's addresses. */
    private static String[] killMasterUnderLoad(ControllerCluster cluster, String haStrategy) throws Exception {
        String oldMaster = cluster.awaitHealthy(TOPIC, QUEUES);
        DefaultMQProducer producer = StockClients.producer(cluster.namesrvAddr(), "compat_failover_kill");
        StockClients.Received received = new StockClients.Received();
        DefaultMQPushConsumer consumer = StockClients.pushConsumer(cluster.namesrvAddr(), "compat_failover_kill_c",
                TOPIC, "*", MessageModel.CLUSTERING, received);
        KeyedSends load = new KeyedSends(producer, TOPIC, "kill-", 256);
        String newMaster;
        try {
            load.start(4);
            load.await("SEND_OKs before the kill", RESUME_TIMEOUT, () -> load.acknowledgedCount() >= 200);
            Await.until("the consumer group consuming before the kill", RESUME_TIMEOUT, () -> received.size() > 0);

            cluster.broker(oldMaster).kill();
            newMaster = cluster.awaitNewMaster(oldMaster, ELECTION_TIMEOUT);
            String master = newMaster;
            load.await("SEND_OKs stored by the new master " + master, RESUME_TIMEOUT,
                    () -> load.acknowledgedBy(master) >= 100);
            Await.until("the consumer group receiving a message the new master acknowledged", RESUME_TIMEOUT, () -> {
                Map<String, KeyedSends.Ack> acknowledged = load.acknowledged();
                return received.messages().stream().map(m -> acknowledged.get(m.getKeys()))
                        .anyMatch(ack -> ack != null && ack.storeHost().equals(master));
            });
        } finally {
            load.close();
            StockClients.shutdownAll(consumer::shutdown, producer::shutdown);
        }
        assertThat(newMaster).isIn(cluster.brokerAddresses());
        assertThat(cluster.syncState().getMasterAddress()).as("the controllers' master").isEqualTo(newMaster);
        FailoverChecks.assertNothingAcknowledgedLost("kill -9 of the master (" + haStrategy + ")", cluster, newMaster,
                TOPIC, QUEUES, load);
        return new String[] {oldMaster, newMaster};
    }
}
