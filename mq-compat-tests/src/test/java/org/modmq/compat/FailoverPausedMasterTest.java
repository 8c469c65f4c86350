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
import org.modmq.testkit.process.ChildProcess;

/**
 * A master paused (SIGSTOP) under a stock producer's sync-send load ({@link ControllerCluster}, pull HA): its
 * heartbeats stop, the controllers replace it once its lease has run out, the producer moves to the new
 * master; then it is resumed (SIGCONT). Its lease lapsed while it was paused, so the sends queued in its
 * sockets must be answered with an error, not SEND_OK: no send started after the pause is acknowledged by
 * the old master, every SEND_OK is readable from the new master, and the old master rejoins as a replica.
 */
@Tag("integration")
@Timeout(value = 240, unit = TimeUnit.SECONDS)
class FailoverPausedMasterTest {

    private static final String TOPIC = "FailoverPause";
    private static final int QUEUES = 4;
    /** {@link Distribution#brokerConf}'s {@code mappedFileSizeCommitLog}. */
    private static final int SEGMENT_SIZE = 16 * 1024 * 1024;
    /** The controllers declare a silent master inactive after its heartbeat timeout (2 s), then elect. */
    private static final Duration ELECTION_TIMEOUT = Duration.ofSeconds(30);
    private static final Duration RESUME_TIMEOUT = Duration.ofSeconds(60);
    private static final int SEND_TIMEOUT_MILLIS = 20_000;

    @TempDir(cleanup = CleanupMode.ON_SUCCESS)
    Path workDir;

    @Test
    void pausedMasterAcknowledgesNothingAfterItsLeaseAndRejoinsAsAReplica() throws Exception {
        try (ControllerCluster cluster = ControllerCluster.start(workDir, "pull", Map.of())) {
            String oldMaster = cluster.awaitHealthy(TOPIC, QUEUES);
            ChildProcess paused = cluster.broker(oldMaster);
            DefaultMQProducer producer = StockClients.producer(cluster.namesrvAddr(), "compat_failover_pause");
            // Longer than the pause, so that the sends waiting on the paused master are still waited for when
            // it runs again, and its answers to them reach the producer.
            producer.setSendMsgTimeout(SEND_TIMEOUT_MILLIS);
            SendAttempts attempts = new SendAttempts();
            producer.getDefaultMQProducerImpl().registerSendMessageHook(attempts);
            KeyedSends load = new KeyedSends(producer, TOPIC, "pause-", 256);
            String newMaster;
            long pausedAt;
            long resumedAt;
            try {
                load.start(4);
                load.await("SEND_OKs before the pause", RESUME_TIMEOUT,
                        () -> load.acknowledgedCount() >= 200);

                cluster.pause(paused);
                // Taken once the signal is delivered: a send started later can only reach a stopped process.
                pausedAt = System.nanoTime();
                newMaster = cluster.awaitNewMaster(oldMaster, ELECTION_TIMEOUT);
                cluster.resume(paused);
                resumedAt = System.nanoTime();
                String master = newMaster;
                load.await("SEND_OKs stored by the new master " + master, RESUME_TIMEOUT,
                        () -> load.acknowledgedBy(master) >= 100);
                long id = cluster.awaitReplica(oldMaster, FailoverChecks.REJOIN_TIMEOUT);
                System.out.printf("[failover] paused master %s replaced by %s after %d ms, resumed, rejoined as id %d%n",
                        oldMaster, newMaster, TimeUnit.NANOSECONDS.toMillis(resumedAt - pausedAt), id);
            } finally {
                load.close();
                StockClients.shutdownAll(producer::shutdown);
            }
            assertNoLateAcknowledgement(attempts, load, oldMaster, pausedAt, resumedAt);
            FailoverChecks.assertNothingAcknowledgedLost("SIGSTOP then SIGCONT of the master", cluster, newMaster, TOPIC,
                    QUEUES, load);
            FailoverChecks.assertFollowsByteIdentical(cluster, oldMaster, newMaster, SEGMENT_SIZE);
        }
    }

    /**
     * The paused master ended attempts it had queued only after SIGCONT (so the producer still waited for
     * them), and acknowledged no attempt started after the pause.
     */
    private static void assertNoLateAcknowledgement(SendAttempts attempts, KeyedSends load, String oldMaster,
                                                    long pausedAt, long resumedAt) {
        List<SendAttempts.Attempt> endedLate = attempts.to(oldMaster).stream().filter(a -> a.endedNanos() > resumedAt)
                .toList();
        List<SendAttempts.Attempt> queued = endedLate.stream().filter(a -> a.startedNanos() < resumedAt).toList();
        System.out.printf("[failover] attempts on the paused master ended after SIGCONT: %d (%d queued before it),"
                + " outcomes %s%n", endedLate.size(), queued.size(), endedLate.stream()
                .collect(Collectors.groupingBy(SendAttempts.Attempt::outcome, TreeMap::new, Collectors.counting())));
        assertThat(queued).as("attempts queued at the paused master that it ended after SIGCONT").isNotEmpty();
        assertThat(attempts.to(oldMaster).stream().filter(a -> a.startedNanos() > pausedAt)
                .filter(SendAttempts.Attempt::acknowledged).toList())
                .as("SEND_OKs by the paused master " + oldMaster + " for attempts started after the pause").isEmpty();
        assertThat(load.acknowledged().values().stream()
                .filter(ack -> ack.storeHost().equals(oldMaster) && ack.startedNanos() > pausedAt).count())
                .as("acknowledged sends started after the pause and stored by the paused master").isZero();
    }
}
