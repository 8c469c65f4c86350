package org.modmq.ha.pull;

import static org.assertj.core.api.Assertions.assertThat;
import static org.modmq.ha.pull.TestStores.await;
import static org.modmq.ha.pull.TestStores.classicMaster;
import static org.modmq.ha.pull.TestStores.classicSlave;
import static org.modmq.ha.pull.TestStores.controller;
import static org.modmq.ha.pull.TestStores.message;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.net.Socket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.modmq.api.message.PutStatus;
import org.modmq.store.PutResult;
import org.modmq.store.SyncStateListener;
import org.modmq.testkit.NettyLeakCheck;

/**
 * Synchronous sends on a real store whose replication tracker counts the pull strategy's reports: a send
 * completes only once a replica acknowledged it, and the store's answers when none does.
 */
@Tag("integration")
@Timeout(60)
@ExtendWith(NettyLeakCheck.class)
class SyncReplicationTest {

    @TempDir
    Path dir;

    private final ScheduledExecutorService scheduler = Executors.newScheduledThreadPool(2);

    @AfterEach
    void stop() {
        scheduler.shutdownNow();
    }

    private HaNode syncMaster(String... extra) {
        var values = classicMaster("SYNC_MASTER");
        for (int i = 0; i < extra.length; i += 2) {
            values = values.with(extra[i], extra[i + 1]);
        }
        return HaNode.open(dir.resolve("master"), values, scheduler);
    }

    private static PutResult result(CompletableFuture<PutResult> future) throws Exception {
        return future.get(10, TimeUnit.SECONDS);
    }

    @Test
    void classicSendCompletesOnlyAfterTheSlaveReportsIt() throws Exception {
        try (HaNode master = syncMaster(); Socket slave = new Socket("127.0.0.1",
                master.strategy.listenAddress().getPort())) {
            slave.setSoTimeout(10_000);
            DataOutputStream out = new DataOutputStream(slave.getOutputStream());
            DataInputStream in = new DataInputStream(slave.getInputStream());
            out.writeLong(0);
            await("the slave's first report", () -> !master.store.replicas().isEmpty());
            CompletableFuture<PutResult> sent = master.store.putMessage(message("TopicR", 0, "wait-for-me"));
            long offset = in.readLong();
            int size = in.readInt();
            in.readFully(new byte[size]);
            assertThat(offset).isZero();
            assertThat(sent).as("the slave has the bytes but has not acknowledged them").isNotDone();
            out.writeLong(size - 1);
            out.flush();
            await("the partial acknowledgement to arrive", () -> master.store.replicas().get(0).ackedOffset() == size - 1);
            assertThat(sent).isNotDone();
            out.writeLong(size);
            out.flush();
            assertThat(result(sent).status()).isEqualTo(PutStatus.PUT_OK);
        }
    }

    @Test
    void classicSyncSendsThroughARealSlave() throws Exception {
        try (HaNode master = syncMaster();
             HaNode slave = HaNode.open(dir.resolve("slave"), classicSlave(), scheduler)) {
            slave.store.becomeReplica(0, master.haAddress(), 0);
            await("the slave to connect", () -> !master.store.replicas().isEmpty());
            for (int i = 0; i < 50; i++) {
                PutResult put = result(master.store.putMessage(message("TopicR", i % 4, "sync-" + i)));
                assertThat(put.status()).isEqualTo(PutStatus.PUT_OK);
                assertThat(slave.store.getCommitLogMaxOffset()).isGreaterThanOrEqualTo(put.endOffset());
            }
        }
    }

    @Test
    void classicAnswersWithoutAUsableSlave() throws Exception {
        try (HaNode master = syncMaster("syncFlushTimeout", "300", "haSlaveFallbehindMax", "2000")) {
            assertThat(result(master.store.putMessage(message("TopicR", 0, "alone"))).status())
                    .isEqualTo(PutStatus.SLAVE_NOT_AVAILABLE);
            try (Socket silent = new Socket("127.0.0.1", master.strategy.listenAddress().getPort())) {
                DataOutputStream out = new DataOutputStream(silent.getOutputStream());
                out.writeLong(0);
                await("the silent slave's report", () -> !master.store.replicas().isEmpty());
                long started = System.nanoTime();
                assertThat(result(master.store.putMessage(message("TopicR", 0, "unacknowledged"))).status())
                        .isEqualTo(PutStatus.FLUSH_SLAVE_TIMEOUT);
                assertThat(Duration.ofNanos(System.nanoTime() - started)).isGreaterThanOrEqualTo(Duration.ofMillis(250));
                for (int i = 0; i < 20; i++) {
                    master.store.append(List.of(message("TopicR", 0, "x".repeat(200))), false);
                }
                assertThat(result(master.store.putMessage(message("TopicR", 0, "far-behind"))).status())
                        .as("the only slave is more than haSlaveFallbehindMax behind")
                        .isEqualTo(PutStatus.SLAVE_NOT_AVAILABLE);
            }
        }
    }

    @Test
    void aWaitingSendFailsWhenTheStoreStopsBeingMaster() throws Exception {
        try (HaNode master = syncMaster("syncFlushTimeout", "30000");
             Socket silent = new Socket("127.0.0.1", master.strategy.listenAddress().getPort())) {
            new DataOutputStream(silent.getOutputStream()).writeLong(0);
            await("the silent slave's report", () -> !master.store.replicas().isEmpty());
            CompletableFuture<PutResult> waiting = master.store.putMessage(message("TopicR", 0, "orphan"));
            assertThat(waiting).isNotDone();
            master.store.becomeReplica(0, null, 0);
            assertThat(result(waiting).status()).isEqualTo(PutStatus.SERVICE_NOT_AVAILABLE);
            await("the slave's connection to be dropped", () -> master.strategy.servedSessions() == 0);
            assertThat(result(master.store.putMessage(message("TopicR", 0, "refused"))).status())
                    .isEqualTo(PutStatus.SERVICE_NOT_AVAILABLE);
        }
    }

    @Test
    void controllerModeSendWaitsForEveryMemberOfTheSyncStateSetAndALostMemberIsReported() throws Exception {
        try (HaNode master = HaNode.open(dir.resolve("master"), controller(0).with("allAckInSyncStateSet", "true")
                .with("syncFlushTimeout", "10000"), scheduler)) {
            CopyOnWriteArrayList<Long> lost = new CopyOnWriteArrayList<>();
            CopyOnWriteArrayList<Long> caughtUp = new CopyOnWriteArrayList<>();
            master.store.addSyncStateListener(new SyncStateListener() {
                @Override
                public void replicaLost(long brokerId) {
                    lost.add(brokerId);
                }

                @Override
                public void replicaCaughtUp(long brokerId) {
                    caughtUp.add(brokerId);
                }
            });
            master.store.becomeMaster(1, 0);
            master.store.applySyncStateSet(Set.of(0L, 1L));
            try (RawAutoSwitchReplica replica = new RawAutoSwitchReplica(master.strategy.listenAddress())) {
                replica.handshake(false, false, 1).readAnswer();
                replica.report(0);
                await("the replica's first report", () -> !master.store.replicas().isEmpty());
                CompletableFuture<PutResult> sent = master.store.putMessage(message("TopicR", 0, "wait-for-both"));
                RawAutoSwitchReplica.Frame frame = replica.readFrame();
                while (frame.body().length == 0) {
                    frame = replica.readFrame();
                }
                long end = frame.offset() + frame.body().length;
                assertThat(frame.confirm()).as("nothing is confirmed before the replica holds it").isZero();
                assertThat(sent).isNotDone();
                assertThat(master.store.getConfirmOffset()).isZero();
                replica.report(end);
                assertThat(result(sent).status()).isEqualTo(PutStatus.PUT_OK);
                assertThat(master.store.getConfirmOffset()).isEqualTo(end);
                RawAutoSwitchReplica.Frame confirmed = replica.readFrame();
                assertThat(confirmed.body()).as("an empty frame carries the risen confirm offset").isEmpty();
                assertThat(confirmed.confirm()).isEqualTo(end);
            }
            await("the member's disconnect to be reported", () -> lost.contains(1L));
            assertThat(caughtUp).as("already a member: never proposed").doesNotContain(1L);
        }
    }

    @Test
    void controllerModeSyncSendsThroughARealReplica() throws Exception {
        try (HaNode master = HaNode.open(dir.resolve("master"), controller(0).with("allAckInSyncStateSet", "true"),
                scheduler);
             HaNode replica = HaNode.open(dir.resolve("replica"), controller(1), scheduler)) {
            master.store.becomeMaster(1, 0);
            master.store.applySyncStateSet(Set.of(0L, 1L));
            replica.store.becomeReplica(1, master.haAddress(), 1);
            for (int i = 0; i < 50; i++) {
                PutResult put = result(master.store.putMessage(message("TopicR", i % 4, "sync-" + i)));
                assertThat(put.status()).isEqualTo(PutStatus.PUT_OK);
                assertThat(replica.store.getCommitLogMaxOffset()).isGreaterThanOrEqualTo(put.endOffset());
                assertThat(master.store.getConfirmOffset()).isGreaterThanOrEqualTo(put.endOffset());
            }
            long end = master.store.getCommitLogMaxOffset();
            await("the replica to learn the confirm offset " + end, () -> replica.store.getConfirmOffset() == end);
            await("the replica to dispatch every message",
                    () -> LogAssertions.caughtUp(master.store, replica.store, end));
        }
    }
}
