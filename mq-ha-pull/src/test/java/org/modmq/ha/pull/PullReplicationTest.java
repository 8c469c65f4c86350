package org.modmq.ha.pull;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.modmq.ha.pull.TestStores.SEGMENT;
import static org.modmq.ha.pull.TestStores.await;
import static org.modmq.ha.pull.TestStores.bytes;
import static org.modmq.ha.pull.TestStores.haValues;
import static org.modmq.ha.pull.TestStores.open;
import static org.modmq.ha.pull.TestStores.putMany;
import static org.modmq.ha.pull.TestStores.strategy;

import io.netty.buffer.ByteBuf;
import java.io.DataOutputStream;
import java.net.Socket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.zip.CRC32;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.modmq.api.config.BrokerRole;
import org.modmq.api.message.PutStatus;
import org.modmq.api.message.PutStatusException;
import org.modmq.api.spi.replication.ReplicaState;
import org.modmq.store.GetMessageResult;
import org.modmq.store.MessageStore;
import org.modmq.testkit.NettyLeakCheck;

@Tag("integration")
@Timeout(60)
@ExtendWith(NettyLeakCheck.class)
class PullReplicationTest {

    private static final Duration WAIT = Duration.ofSeconds(20);

    @TempDir
    Path dir;

    private final ScheduledExecutorService scheduler = Executors.newScheduledThreadPool(2);

    @AfterEach
    void stop() {
        scheduler.shutdownNow();
    }

    private PullReplicationStrategy master(MessageStore store, BrokerRole role) {
        PullReplicationStrategy strategy = strategy(haValues(), store, role, dir.resolve("master"), scheduler);
        strategy.start();
        return strategy;
    }

    private PullReplicationStrategy replica(MessageStore store, PullReplicationStrategy master) {
        PullReplicationStrategy strategy = strategy(haValues(), store, BrokerRole.SLAVE, dir.resolve("replica"),
                scheduler);
        strategy.start();
        strategy.followMaster("127.0.0.1:" + master.listenAddress().getPort());
        return strategy;
    }

    /** The replica holds {@code end} and has dispatched it (dispatch follows the append on the HA thread). */
    private static boolean caughtUp(MessageStore master, MessageStore replica, long end) {
        if (replica.getCommitLogMaxOffset() != end) {
            return false;
        }
        for (int queue = 0; queue < 4; queue++) {
            if (replica.getMaxOffsetInQueue("TopicR", queue) != master.getMaxOffsetInQueue("TopicR", queue)) {
                return false;
            }
        }
        return true;
    }

    private static void assertSameLog(MessageStore master, MessageStore replica, long from) {
        long end = master.getCommitLogMaxOffset();
        assertThat(replica.getCommitLogMaxOffset()).isEqualTo(end);
        assertThat(bytes(replica.replicatedLog(), from, end)).isEqualTo(bytes(master.replicatedLog(), from, end));
    }

    private static void assertSameQueues(MessageStore master, MessageStore replica) {
        for (int queue = 0; queue < 4; queue++) {
            long max = master.getMaxOffsetInQueue("TopicR", queue);
            long min = replica.getMinOffsetInQueue("TopicR", queue);
            assertThat(replica.getMaxOffsetInQueue("TopicR", queue)).isEqualTo(max);
            assertThat(messages(replica, queue, min, max)).as("queue %d [%d, %d)", queue, min, max)
                    .hasSize((int) (max - min)).isEqualTo(messages(master, queue, min, max));
        }
    }

    /** CRC32 of each message's stored bytes (short failure messages). */
    private static List<Long> messages(MessageStore store, int queue, long from, long to) {
        List<Long> all = new ArrayList<>();
        long at = from;
        while (at < to) {
            try (GetMessageResult result = store.getMessages("TopicR", queue, at, 64, tag -> true, 1 << 20)) {
                for (ByteBuf message : result.messages()) {
                    byte[] copy = new byte[message.readableBytes()];
                    message.getBytes(message.readerIndex(), copy);
                    CRC32 crc = new CRC32();
                    crc.update(copy);
                    all.add(crc.getValue());
                }
                assertThat(result.nextBeginOffset()).isGreaterThan(at);
                at = result.nextBeginOffset();
            }
        }
        return all;
    }

    @Test
    void replicatesABurstAcrossSegmentsByteForByte() throws Exception {
        try (MessageStore masterStore = open(dir.resolve("master"), scheduler);
             MessageStore replicaStore = open(dir.resolve("replica"), scheduler);
             PullReplicationStrategy master = master(masterStore, BrokerRole.ASYNC_MASTER);
             PullReplicationStrategy replica = replica(replicaStore, master)) {
            await("the replica to connect", WAIT, () -> !master.replicas().isEmpty());
            long end = putMany(masterStore, master, "burst-", 3_000, 1_000);
            assertThat(end).isGreaterThan(2L * SEGMENT);
            await("the replica to reach " + end, WAIT, () -> caughtUp(masterStore, replicaStore, end));
            assertSameLog(masterStore, replicaStore, 0);
            assertSameQueues(masterStore, replicaStore);
            await("the master to see the acknowledgement", WAIT,
                    () -> master.replicas().get(0).ackedOffset() == end);
            ReplicaState state = master.replicas().get(0);
            assertThat(state.inSync()).isTrue();
            assertThat(state.address()).startsWith("127.0.0.1:");
            assertThat(replica.replicas()).isEmpty();
        }
    }

    @Test
    void emptyReplicaStartsAtTheMastersLastSegment() throws Exception {
        try (MessageStore masterStore = open(dir.resolve("master"), scheduler);
             MessageStore replicaStore = open(dir.resolve("replica"), scheduler);
             PullReplicationStrategy master = master(masterStore, BrokerRole.ASYNC_MASTER)) {
            long before = putMany(masterStore, master, "old-", 2_500, 1_000);
            long lastStart = before - before % SEGMENT;
            assertThat(lastStart).isGreaterThan(0);
            try (PullReplicationStrategy replica = replica(replicaStore, master)) {
                long end = putMany(masterStore, master, "new-", 500, 1_000);
                await("the replica to reach " + end, WAIT, () -> caughtUp(masterStore, replicaStore, end));
                assertThat(replica.followerState()).isEqualTo(MasterFollower.State.CONNECTED);
                assertThat(replicaStore.getCommitLogMinOffset()).isEqualTo(lastStart);
                assertSameLog(masterStore, replicaStore, lastStart);
                assertSameQueues(masterStore, replicaStore);
            }
        }
    }

    @Test
    void restartedReplicaCatchesUp() throws Exception {
        try (MessageStore masterStore = open(dir.resolve("master"), scheduler);
             PullReplicationStrategy master = master(masterStore, BrokerRole.ASYNC_MASTER)) {
            long first;
            try (MessageStore replicaStore = open(dir.resolve("replica"), scheduler);
                 PullReplicationStrategy replica = replica(replicaStore, master)) {
                await("the replica to connect", WAIT,
                        () -> replica.followerState() == MasterFollower.State.CONNECTED);
                first = putMany(masterStore, master, "a-", 1_500, 1_000);
                await("the replica to hold half a segment", WAIT,
                        () -> replicaStore.getCommitLogMaxOffset() > SEGMENT / 2);
            }
            long end = putMany(masterStore, master, "b-", 1_500, 1_000);
            assertThat(end).isGreaterThan(first);
            try (MessageStore replicaStore = open(dir.resolve("replica"), scheduler);
                 PullReplicationStrategy replica = replica(replicaStore, master)) {
                assertThat(replicaStore.getCommitLogMaxOffset()).isGreaterThan(0).isLessThan(end);
                await("the restarted replica to reach " + end, WAIT,
                        () -> caughtUp(masterStore, replicaStore, end));
                assertThat(replica.followerState()).isEqualTo(MasterFollower.State.CONNECTED);
                assertSameLog(masterStore, replicaStore, 0);
                assertSameQueues(masterStore, replicaStore);
            }
        }
    }

    @Test
    void replicaRedialsARestartedMaster() throws Exception {
        try (MessageStore masterStore = open(dir.resolve("master"), scheduler);
             MessageStore replicaStore = open(dir.resolve("replica"), scheduler)) {
            PullReplicationStrategy first = master(masterStore, BrokerRole.ASYNC_MASTER);
            int port = first.listenAddress().getPort();
            try (PullReplicationStrategy replica = replica(replicaStore, first)) {
                long end1 = putMany(masterStore, first, "a-", 200, 500);
                await("the replica to reach " + end1, WAIT, () -> replicaStore.getCommitLogMaxOffset() == end1);
                first.close();
                await("the replica to notice", WAIT,
                        () -> replica.followerState() == MasterFollower.State.WAITING_TO_REDIAL
                                || replica.followerState() == MasterFollower.State.CONNECTING);
                long end2 = putMany(masterStore, null, "b-", 200, 500);
                try (PullReplicationStrategy second = strategy(haValues().with("haListenPort", String.valueOf(port)),
                        masterStore, BrokerRole.ASYNC_MASTER, dir.resolve("master"), scheduler)) {
                    second.start();
                    await("the replica to reach " + end2 + " from the restarted master", WAIT,
                            () -> replicaStore.getCommitLogMaxOffset() == end2);
                    assertSameLog(masterStore, replicaStore, 0);
                }
            }
        }
    }

    @Test
    void aSlaveThatStopsReadingHoldsBackNobody() throws Exception {
        try (MessageStore masterStore = open(dir.resolve("master"), scheduler);
             MessageStore replicaStore = open(dir.resolve("replica"), scheduler);
             PullReplicationStrategy master = master(masterStore, BrokerRole.ASYNC_MASTER);
             Socket stuck = new Socket()) {
            stuck.setReceiveBufferSize(4096);
            stuck.connect(master.listenAddress());
            new DataOutputStream(stuck.getOutputStream()).writeLong(0);
            await("the stuck slave's report", WAIT, () -> !master.replicas().isEmpty());
            try (PullReplicationStrategy replica = replica(replicaStore, master)) {
                long end = putMany(masterStore, master, "s-", 3_000, 1_000);
                await("the healthy replica to reach " + end, WAIT, () -> caughtUp(masterStore, replicaStore, end));
                assertThat(replica.followerState()).isEqualTo(MasterFollower.State.CONNECTED);
                assertSameLog(masterStore, replicaStore, 0);
                assertThat(master.replicas()).hasSize(2);
            }
        }
    }

    @Test
    void syncWaitCompletesAfterTheSlaveAcknowledges() throws Exception {
        try (MessageStore masterStore = open(dir.resolve("master"), scheduler);
             MessageStore replicaStore = open(dir.resolve("replica"), scheduler);
             PullReplicationStrategy master = master(masterStore, BrokerRole.SYNC_MASTER);
             PullReplicationStrategy replica = replica(replicaStore, master)) {
            await("the replica's first report", WAIT,
                    () -> master.replicas().stream().anyMatch(ReplicaState::inSync));
            assertThat(replica.followerState()).isEqualTo(MasterFollower.State.CONNECTED);
            for (int i = 0; i < 50; i++) {
                long end = putMany(masterStore, null, "sync-" + i + "-", 1, 200);
                master.appended(end);
                master.awaitReplicated(end, Duration.ofSeconds(5)).get(10, TimeUnit.SECONDS);
                assertThat(replicaStore.getCommitLogMaxOffset()).isGreaterThanOrEqualTo(end);
            }
            assertThat(master.awaitReplicated(1, Duration.ofSeconds(1))).isCompleted();
        }
    }

    @Test
    void slaveNotAvailableWithoutAReplica() throws Exception {
        try (MessageStore masterStore = open(dir.resolve("master"), scheduler);
             PullReplicationStrategy master = master(masterStore, BrokerRole.SYNC_MASTER)) {
            long end = putMany(masterStore, master, "x-", 1, 100);
            CompletableFuture<Void> wait = master.awaitReplicated(end, Duration.ofSeconds(5));
            assertThat(wait).isCompletedExceptionally();
            assertThat(statusOf(wait)).isEqualTo(PutStatus.SLAVE_NOT_AVAILABLE);
            assertThat(master.replicas()).isEmpty();
        }
    }

    @Test
    void flushSlaveTimeoutWhenTheSlaveStopsAcknowledging() throws Exception {
        try (MessageStore masterStore = open(dir.resolve("master"), scheduler);
             PullReplicationStrategy master = master(masterStore, BrokerRole.SYNC_MASTER);
             Socket silent = new Socket("127.0.0.1", master.listenAddress().getPort())) {
            new DataOutputStream(silent.getOutputStream()).writeLong(0);
            await("the master to read the report", WAIT,
                    () -> master.replicas().stream().anyMatch(ReplicaState::inSync));
            long end = putMany(masterStore, master, "y-", 10, 100);
            long started = System.nanoTime();
            CompletableFuture<Void> wait = master.awaitReplicated(end, Duration.ofMillis(300));
            assertThat(statusOf(wait)).isEqualTo(PutStatus.FLUSH_SLAVE_TIMEOUT);
            assertThat(Duration.ofNanos(System.nanoTime() - started)).isGreaterThanOrEqualTo(Duration.ofMillis(250));
            assertThat(master.replicas()).singleElement().extracting(ReplicaState::ackedOffset).isEqualTo(0L);
        }
    }

    @Test
    void slaveFarBehindIsNotAvailable() throws Exception {
        try (MessageStore masterStore = open(dir.resolve("master"), scheduler);
             PullReplicationStrategy master = strategy(haValues().with("haSlaveFallbehindMax", "1000"), masterStore,
                     BrokerRole.SYNC_MASTER, dir.resolve("master"), scheduler)) {
            master.start();
            try (Socket slow = new Socket("127.0.0.1", master.listenAddress().getPort())) {
                new DataOutputStream(slow.getOutputStream()).writeLong(0);
                await("the master to read the report", WAIT, () -> !master.replicas().isEmpty());
                long end = putMany(masterStore, master, "z-", 20, 200);
                assertThat(statusOf(master.awaitReplicated(end, Duration.ofSeconds(5))))
                        .isEqualTo(PutStatus.SLAVE_NOT_AVAILABLE);
                assertThat(master.replicas()).singleElement().extracting(ReplicaState::inSync).isEqualTo(false);
            }
        }
    }

    @Test
    void replicaHoldingBytesTheMasterLacksRefusesToFollow() throws Exception {
        try (MessageStore masterStore = open(dir.resolve("master"), scheduler);
             MessageStore replicaStore = open(dir.resolve("replica"), scheduler);
             PullReplicationStrategy master = master(masterStore, BrokerRole.ASYNC_MASTER)) {
            putMany(masterStore, master, "m-", 5, 100);
            long replicaEnd = putMany(replicaStore, null, "local-", 50, 100);
            assertThat(replicaEnd).isGreaterThan(masterStore.getCommitLogMaxOffset());
            try (PullReplicationStrategy replica = replica(replicaStore, master)) {
                await("the replica to refuse", WAIT,
                        () -> replica.followerState() == MasterFollower.State.DIVERGED);
                await("the master to drop the slave", WAIT, () -> master.replicas().isEmpty());
                assertThat(replicaStore.getCommitLogMaxOffset()).isEqualTo(replicaEnd);
            }
        }
    }

    @Test
    void rolesAndLifecycle() throws Exception {
        try (MessageStore store = open(dir.resolve("master"), scheduler)) {
            PullReplicationStrategy master = strategy(haValues(), store, BrokerRole.ASYNC_MASTER, dir, scheduler);
            assertThat(master.name()).isEqualTo("pull");
            assertThatThrownBy(() -> master.followMaster("127.0.0.1:1")).isInstanceOf(IllegalStateException.class);
            master.followMaster(null);
            master.start();
            master.start();
            master.close();
            master.close();
            PullReplicationStrategy slave = strategy(haValues(), store, BrokerRole.SLAVE, dir, scheduler);
            assertThatThrownBy(() -> slave.awaitReplicated(1, Duration.ofSeconds(1)))
                    .isInstanceOf(IllegalStateException.class);
            assertThatThrownBy(() -> slave.followMaster("no-port")).hasMessageContaining("host:port");
            slave.close();
        }
    }

    private static PutStatus statusOf(CompletableFuture<Void> future) throws Exception {
        try {
            future.get(10, TimeUnit.SECONDS);
            throw new AssertionError("expected a failure");
        } catch (ExecutionException e) {
            assertThat(e.getCause()).isInstanceOf(PutStatusException.class);
            return ((PutStatusException) e.getCause()).status();
        }
    }
}
