package org.modmq.compat;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.client.producer.SendCallback;
import org.apache.rocketmq.client.producer.SendResult;
import org.apache.rocketmq.client.producer.SendStatus;
import org.apache.rocketmq.common.message.Message;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;
import org.modmq.testkit.process.Await;
import org.modmq.testkit.process.ChildProcess;

/**
 * The old master comes back ({@link ControllerCluster}, pull HA): it was killed holding a large tail no
 * replica had (both replicas paused for a moment while it stored ~48 MiB that could never be
 * acknowledged), a replica took over, and the old master is restarted on its store and configuration. It
 * registers as a replica and cuts its diverged tail; the test kills it (SIGKILL) while its {@code truncating}
 * marker exists, restarts it once more, and checks that it finished the cut and follows: its CommitLog is
 * byte-identical with the new master's up to the new master's end, and both epoch files agree.
 */
@Tag("integration")
@Timeout(value = 240, unit = TimeUnit.SECONDS)
class FailoverRejoinTest {

    private static final String TOPIC = "FailoverRejoin";
    private static final int QUEUES = 4;
    /** Large segments, so the diverged tail lies in one segment and zeroing it takes a while. */
    private static final int SEGMENT_SIZE = 128 * 1024 * 1024;
    private static final int TAIL_MESSAGES = 64;
    private static final int TAIL_MESSAGE_SIZE = 1024 * 1024;
    /** Less than the tail sent, so that it is reached while the replicas are still paused. */
    private static final long TAIL_BYTES = 48L * 1024 * 1024;
    private static final Duration TAIL_TIMEOUT = Duration.ofSeconds(10);
    private static final Duration STEP_TIMEOUT = Duration.ofSeconds(60);

    @TempDir(cleanup = CleanupMode.ON_SUCCESS)
    Path workDir;

    @Test
    void oldMasterKilledInsideItsTruncationRejoinsAsAByteIdenticalReplica() throws Exception {
        try (ControllerCluster cluster = ControllerCluster.start(workDir, "pull",
                Map.of("mappedFileSizeCommitLog", Integer.toString(SEGMENT_SIZE)))) {
            String oldMaster = cluster.awaitHealthy(TOPIC, QUEUES);
            List<String> replicas = cluster.brokerAddresses().stream().filter(a -> !a.equals(oldMaster)).toList();
            DefaultMQProducer producer = StockClients.producer(cluster.namesrvAddr(), "compat_failover_rejoin");
            // A retry could store a tail message on the new master and be acknowledged there.
            producer.setRetryTimesWhenSendAsyncFailed(0);
            KeyedSends before = new KeyedSends(producer, TOPIC, "before-", 256);
            KeyedSends after = new KeyedSends(producer, TOPIC, "after-", 256);
            String newMaster;
            long oldEnd;
            AtomicInteger tailAcknowledged = new AtomicInteger();
            try {
                before.start(2);
                before.await("SEND_OKs before the fault", STEP_TIMEOUT,
                        () -> before.acknowledgedCount() >= 100);
                before.close();
                cluster.awaitReplicasCaughtUp(oldMaster, STEP_TIMEOUT);

                long start = cluster.commitLogMaxOffset(oldMaster);
                replicas.forEach(replica -> cluster.pause(cluster.broker(replica)));
                sendTail(producer, oldMaster, tailAcknowledged);
                oldEnd = Await.value("the master to store " + TAIL_BYTES + " bytes no replica has", TAIL_TIMEOUT, () -> {
                    long end = cluster.commitLogMaxOffset(oldMaster);
                    return end >= start + TAIL_BYTES ? end : null;
                });
                cluster.broker(oldMaster).kill();
                replicas.forEach(replica -> cluster.resume(cluster.broker(replica)));

                newMaster = cluster.awaitNewMaster(oldMaster, STEP_TIMEOUT);
                String master = newMaster;
                after.start(2);
                after.await("SEND_OKs stored by the new master", STEP_TIMEOUT,
                        () -> after.acknowledgedBy(master) >= 100);
            } finally {
                before.close();
                after.close();
                StockClients.shutdownAll(producer::shutdown);
            }
            assertThat(tailAcknowledged).as("tail sends the old master acknowledged while no replica could take them")
                    .hasValue(0);
            Path oldStore = cluster.brokerConf(oldMaster).storeDir();
            Path newStore = cluster.brokerConf(newMaster).storeDir();
            long epochStart = StoreFiles.lastEpochStart(newStore);
            assertThat(oldEnd).as("the old master's log end beyond the new master's epoch start " + epochStart)
                    .isGreaterThan(epochStart);

            long killedAfterMicros = restartAndKillInsideTruncation(cluster, oldMaster);
            assertThat(StoreFiles.truncating(oldStore)).as("the truncation marker left by the kill").isTrue();
            System.out.printf("[failover] old master %s killed %d us after its truncation marker appeared%n",
                    oldMaster, killedAfterMicros);

            cluster.restartBroker(oldMaster);
            FailoverChecks.assertFollowsByteIdentical(cluster, oldMaster, newMaster, SEGMENT_SIZE);
            FailoverChecks.assertNothingAcknowledgedLost("old master rejoins (before)", cluster, newMaster, TOPIC, QUEUES,
                    before);
            FailoverChecks.assertNothingAcknowledgedLost("old master rejoins (after)", cluster, newMaster, TOPIC, QUEUES,
                    after);
        }
    }

    /** Async sends of incompressible 1 MiB bodies: the master stores them and waits for replicas in vain. */
    private static void sendTail(DefaultMQProducer producer, String oldMaster, AtomicInteger acknowledged)
            throws Exception {
        for (int i = 0; i < TAIL_MESSAGES; i++) {
            byte[] body = new byte[TAIL_MESSAGE_SIZE];
            ThreadLocalRandom.current().nextBytes(body);
            producer.send(new Message(TOPIC, "tail", "tail-" + i, body), new SendCallback() {
                @Override
                public void onSuccess(SendResult result) {
                    // Only the old master's: the producer's async sender may send the last ones after the new
                    // master is at the name server, and that one may store them.
                    if (result.getSendStatus() == SendStatus.SEND_OK && KeyedSends.storeHost(result).equals(oldMaster)) {
                        acknowledged.incrementAndGet();
                    }
                }

                @Override
                public void onException(Throwable error) {
                    // expected: the master dies before any replica holds the tail
                }
            });
        }
    }

    /**
     * Restarts the broker and SIGKILLs it the moment its store's truncation marker appears; returns how long
     * after the marker was first seen the kill was sent, in microseconds. The broker's process is looked up
     * among this JVM's children by its configuration file as soon as it is spawned (the launcher execs the
     * JVM in the same process), since the marker may appear before the restart returns.
     */
    private static long restartAndKillInsideTruncation(ControllerCluster cluster, String address) throws Exception {
        Path store = cluster.brokerConf(address).storeDir();
        String conf = cluster.brokerConf(address).file().toString();
        CompletableFuture<Void> restarted = CompletableFuture.runAsync(() -> cluster.restartBroker(address));
        ProcessHandle broker = Await.value("the restarted process of " + address, STEP_TIMEOUT,
                () -> ProcessHandle.current().children().filter(ProcessHandle::isAlive)
                        .filter(p -> p.info().arguments().map(args -> Arrays.asList(args).contains(conf)).orElse(false))
                        .findFirst().orElse(null));
        long deadline = System.nanoTime() + STEP_TIMEOUT.toNanos();
        while (!StoreFiles.truncating(store)) {
            if (System.nanoTime() - deadline >= 0 || !broker.isAlive()) {
                throw new AssertionError("no truncation marker in " + store + " within " + STEP_TIMEOUT
                        + " (process alive: " + broker.isAlive() + ")");
            }
            Thread.sleep(1);
        }
        long seen = System.nanoTime();
        broker.destroyForcibly();
        long killed = System.nanoTime();
        broker.onExit().get(ChildProcess.STOP_TIMEOUT.toSeconds(), TimeUnit.SECONDS);
        // Only its end matters: had the kill come before the port opened, the restart would report the exit.
        restarted.exceptionally(error -> null).get(Distribution.START_TIMEOUT.toSeconds() + 10, TimeUnit.SECONDS);
        return TimeUnit.NANOSECONDS.toMicros(killed - seen);
    }
}
