package org.modmq.compat;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;

/**
 * A master cut off from every controller by a partition while clients, the name server and its replicas
 * still reach it ({@link ControllerLinks}: its controller connections stay open and carry nothing), under a
 * stock producer's sync-send load ({@link ControllerCluster}, pull HA). This is the case in which RocketMQ's
 * users saw two masters acknowledge writes: here the old master's lease runs out 1.5 s after its last
 * answered heartbeat, before the controllers may elect (2 s of silence), so it acknowledges no send started
 * after that; every SEND_OK is readable from the new master, and once the partition heals the old master
 * learns of the election, cuts what it never had acknowledged and follows.
 */
@Tag("integration")
@Timeout(value = 240, unit = TimeUnit.SECONDS)
class FailoverPartitionedMasterTest {

    private static final String TOPIC = "FailoverPartition";
    private static final int QUEUES = 4;
    /** {@link Distribution#brokerConf}'s {@code mappedFileSizeCommitLog}. */
    private static final int SEGMENT_SIZE = 16 * 1024 * 1024;
    private static final Duration ELECTION_TIMEOUT = Duration.ofSeconds(30);
    private static final Duration LOAD_TIMEOUT = Duration.ofSeconds(60);
    /** The brokers' {@code controllerHeartBeatTimeoutMills}: no lease granted before the cut outlasts it. */
    private static final long LEASE_BOUND_NANOS = TimeUnit.MILLISECONDS.toNanos(2_000);

    @TempDir(cleanup = CleanupMode.ON_SUCCESS)
    Path workDir;

    @Test
    void partitionedMasterAcknowledgesNothingAfterItsLeaseAndFollowsOnceHealed() throws Exception {
        try (ControllerLinks links = new ControllerLinks();
             ControllerCluster cluster = ControllerCluster.start(workDir, "pull", Map.of(), links)) {
            String oldMaster = cluster.awaitHealthy(TOPIC, QUEUES);
            DefaultMQProducer producer = StockClients.producer(cluster.namesrvAddr(), "compat_failover_partition");
            SendAttempts attempts = new SendAttempts();
            producer.getDefaultMQProducerImpl().registerSendMessageHook(attempts);
            KeyedSends load = new KeyedSends(producer, TOPIC, "partition-", 256);
            String newMaster;
            long cutAt;
            try {
                load.start(4);
                load.await("SEND_OKs before the partition", LOAD_TIMEOUT, () -> load.acknowledgedCount() >= 200);

                links.cut(oldMaster);
                cutAt = System.nanoTime();
                newMaster = cluster.awaitNewMaster(oldMaster, ELECTION_TIMEOUT);
                long electedAfter = System.nanoTime() - cutAt;
                String master = newMaster;
                load.await("SEND_OKs stored by the new master " + master, LOAD_TIMEOUT,
                        () -> load.acknowledgedBy(master) >= 100);
                links.heal(oldMaster);
                long id = cluster.awaitReplica(oldMaster, FailoverChecks.REJOIN_TIMEOUT);
                System.out.printf("[failover] master %s cut off from the controllers, %s at the name server %d ms"
                        + " later; healed, the old master rejoined as id %d%n", oldMaster, newMaster,
                        TimeUnit.NANOSECONDS.toMillis(electedAfter), id);
            } finally {
                load.close();
                StockClients.shutdownAll(producer::shutdown);
            }
            assertNoAcknowledgementAfterTheLease(attempts, oldMaster, cutAt);
            FailoverChecks.assertNothingAcknowledgedLost("a partition between the master and the controllers", cluster,
                    newMaster, TOPIC, QUEUES, load);
            FailoverChecks.assertFollowsByteIdentical(cluster, oldMaster, newMaster, SEGMENT_SIZE);
        }
    }

    private static void assertNoAcknowledgementAfterTheLease(SendAttempts attempts, String oldMaster, long cutAt) {
        List<SendAttempts.Attempt> afterCut = attempts.to(oldMaster).stream().filter(a -> a.startedNanos() > cutAt)
                .toList();
        System.out.printf("[failover] attempts on the cut-off master started after the cut: %d, outcomes %s%n",
                afterCut.size(), afterCut.stream().collect(Collectors.groupingBy(SendAttempts.Attempt::outcome,
                        TreeMap::new, Collectors.counting())));
        assertThat(afterCut.stream().filter(a -> a.startedNanos() > cutAt + LEASE_BOUND_NANOS)
                .filter(SendAttempts.Attempt::acknowledged).toList())
                .as("SEND_OKs by the cut-off master " + oldMaster + " for attempts started after its lease ended")
                .isEmpty();
    }
}
