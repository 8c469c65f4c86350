package org.modmq.compat;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.remoting.protocol.body.BrokerReplicasInfo;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;
import org.modmq.testkit.process.Await;

/**
 * {@code kill -9} of the master of a controller-mode broker set ({@link ControllerCluster}, pull HA) under a
 * stock producer's load and, right after (before the election can be relied on to have happened), of the
 * controller leader: the two remaining controllers elect a new leader, which elects a new master once it
 * has waited out the lease window (see the lease contract in {@code mq-controller/README.md}); the producer
 * resumes on the new master and every acknowledged message is readable from it.
 */
@Tag("integration")
@Timeout(value = 240, unit = TimeUnit.SECONDS)
class FailoverControllerLeaderTest {

    private static final String TOPIC = "FailoverLeader";
    private static final int QUEUES = 4;
    /** A Raft election among the two survivors, then the lease wait of a new leader (seconds), then the election. */
    private static final Duration ELECTION_TIMEOUT = Duration.ofSeconds(45);
    private static final Duration RESUME_TIMEOUT = Duration.ofSeconds(60);

    @TempDir(cleanup = CleanupMode.ON_SUCCESS)
    Path workDir;

    @Test
    void newControllerLeaderElectsANewMasterAndNothingAcknowledgedIsLost() throws Exception {
        try (ControllerCluster cluster = ControllerCluster.start(workDir, "pull", Map.of())) {
            String oldMaster = cluster.awaitHealthy(TOPIC, QUEUES);
            String oldLeader = Await.value("a controller leader", ELECTION_TIMEOUT, cluster::controllerLeader);
            DefaultMQProducer producer = StockClients.producer(cluster.namesrvAddr(), "compat_failover_leader");
            KeyedSends load = new KeyedSends(producer, TOPIC, "leader-", 256);
            String newMaster;
            String newLeader;
            try {
                load.start(4);
                load.await("SEND_OKs before the kill", RESUME_TIMEOUT,
                        () -> load.acknowledgedCount() >= 200);

                // SIGKILL both without waiting in between: the leader's sockets close while the master's
                // connection close is still on its way to (or being acted on by) the leader.
                ProcessHandle.of(cluster.broker(oldMaster).pid()).ifPresent(ProcessHandle::destroyForcibly);
                cluster.controller(oldLeader).kill();
                cluster.broker(oldMaster).kill();
                long killed = System.nanoTime();

                newLeader = Await.value("a controller leader other than " + oldLeader, ELECTION_TIMEOUT, () -> {
                    String leader = cluster.controllerLeader();
                    return leader != null && !leader.equals(oldLeader) ? leader : null;
                });
                newMaster = cluster.awaitNewMaster(oldMaster, ELECTION_TIMEOUT);
                System.out.printf("[failover] controller leader %s -> %s, master %s -> %s %d ms after the kills%n",
                        oldLeader, newLeader, oldMaster, newMaster,
                        TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - killed));
                String master = newMaster;
                load.await("SEND_OKs stored by the new master " + master, RESUME_TIMEOUT,
                        () -> load.acknowledgedBy(master) >= 100);
            } finally {
                load.close();
                StockClients.shutdownAll(producer::shutdown);
            }
            // A peer that has not yet applied the election may answer first; ask until one names a master.
            String named = Await.value("a controller naming the master", ELECTION_TIMEOUT, () -> {
                BrokerReplicasInfo.ReplicasInfo info = cluster.syncState();
                return info == null || info.getMasterAddress() == null || info.getMasterAddress().isEmpty()
                        ? null : info.getMasterAddress();
            });
            assertThat(named).as("the master named by the controllers after leader " + newLeader).isEqualTo(newMaster);
            FailoverChecks.assertNothingAcknowledgedLost("master and controller leader killed", cluster, newMaster,
                    TOPIC, QUEUES, load);
        }
    }
}
