package org.modmq.ha.pull;

import static org.assertj.core.api.Assertions.assertThat;
import static org.modmq.ha.pull.LogAssertions.assertSameLog;
import static org.modmq.ha.pull.LogAssertions.assertSameQueues;
import static org.modmq.ha.pull.LogAssertions.caughtUp;
import static org.modmq.ha.pull.TestStores.SEGMENT;
import static org.modmq.ha.pull.TestStores.await;
import static org.modmq.ha.pull.TestStores.classicMaster;
import static org.modmq.ha.pull.TestStores.classicSlave;
import static org.modmq.ha.pull.TestStores.putMany;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.net.SocketException;
import java.nio.file.Path;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.modmq.api.spi.replication.ReplicaLink;
import org.modmq.api.spi.replication.ReplicaRole;
import org.modmq.api.spi.replication.ReplicaState;
import org.modmq.testkit.NettyLeakCheck;

/** Classic HA between real stores on loopback, driven through the store's role transitions. */
@Tag("integration")
@Timeout(60)
@ExtendWith(NettyLeakCheck.class)
class ClassicReplicationTest {

    @TempDir
    Path dir;

    private final ScheduledExecutorService scheduler = Executors.newScheduledThreadPool(2);

    @AfterEach
    void stop() {
        scheduler.shutdownNow();
    }

    private HaNode master() {
        return HaNode.open(dir.resolve("master"), classicMaster("ASYNC_MASTER"), scheduler);
    }

    private HaNode replicaOf(HaNode master) {
        HaNode replica = HaNode.open(dir.resolve("replica"), classicSlave(), scheduler);
        replica.store.becomeReplica(0, master.haAddress(), 0);
        return replica;
    }

    @Test
    void replicatesABurstAcrossSegmentsByteForByte() throws Exception {
        try (HaNode master = master(); HaNode replica = replicaOf(master)) {
            await("the replica to connect", () -> !master.store.replicas().isEmpty());
            long end = putMany(master.store, "burst-", 3_000, 1_000);
            assertThat(end).isGreaterThan(2L * SEGMENT);
            await("the replica to reach " + end, () -> caughtUp(master.store, replica.store, end));
            assertSameLog(master.store, replica.store, 0);
            assertSameQueues(master.store, replica.store);
            await("the master to see the acknowledgement", () -> master.store.replicas().get(0).ackedOffset() == end);
            ReplicaState state = master.store.replicas().get(0);
            assertThat(state.inSync()).isTrue();
            assertThat(state.address()).startsWith("127.0.0.1:");
            assertThat(state.brokerId()).isEqualTo(ReplicaLink.UNKNOWN_ID);
            assertThat(replica.store.replicas()).isEmpty();
            assertThat(replica.store.epochs()).as("classic HA keeps no epochs").isEmpty();
        }
    }

    @Test
    void emptyReplicaStartsAtTheMastersLastSegment() throws Exception {
        try (HaNode master = master()) {
            long before = putMany(master.store, "old-", 2_500, 1_000);
            long lastStart = before - before % SEGMENT;
            assertThat(lastStart).isGreaterThan(0);
            try (HaNode replica = replicaOf(master)) {
                long end = putMany(master.store, "new-", 500, 1_000);
                await("the replica to reach " + end, () -> caughtUp(master.store, replica.store, end));
                assertThat(replica.strategy.followerState()).isEqualTo(MasterFollower.State.CONNECTED);
                assertThat(replica.store.getCommitLogMinOffset()).isEqualTo(lastStart);
                assertSameLog(master.store, replica.store, lastStart);
                assertSameQueues(master.store, replica.store);
            }
        }
    }

    @Test
    void aSlaveThatStopsReadingHoldsBackNobody() throws Exception {
        try (HaNode master = master(); Socket stuck = new Socket()) {
            stuck.setReceiveBufferSize(4096);
            stuck.connect(master.strategy.listenAddress());
            new DataOutputStream(stuck.getOutputStream()).writeLong(0);
            await("the stuck slave's report", () -> !master.store.replicas().isEmpty());
            try (HaNode replica = replicaOf(master)) {
                long end = putMany(master.store, "s-", 3_000, 1_000);
                await("the healthy replica to reach " + end, () -> caughtUp(master.store, replica.store, end));
                assertThat(replica.strategy.followerState()).isEqualTo(MasterFollower.State.CONNECTED);
                assertSameLog(master.store, replica.store, 0);
                assertThat(master.store.replicas()).hasSize(2);
            }
        }
    }

    @Test
    void replicaHoldingBytesTheMasterLacksRefusesToFollow() throws Exception {
        try (HaNode master = master();
             HaNode replica = HaNode.open(dir.resolve("replica"), classicMaster("ASYNC_MASTER"), scheduler)) {
            putMany(master.store, "m-", 5, 100);
            long replicaEnd = putMany(replica.store, "local-", 50, 100);
            assertThat(replicaEnd).isGreaterThan(master.store.getCommitLogMaxOffset());
            replica.store.becomeReplica(0, master.haAddress(), 0);
            await("the replica to refuse", () -> replica.strategy.followerState() == MasterFollower.State.HALTED);
            await("the master to drop the slave", () -> master.strategy.servedSessions() == 0);
            assertThat(replica.store.getCommitLogMaxOffset()).isEqualTo(replicaEnd);
            assertThat(master.store.replicas()).isEmpty();
        }
    }

    @Test
    void aReplicaRefusesReplicaConnectionsUntilItIsMaster() throws Exception {
        try (HaNode node = HaNode.open(dir.resolve("replica"), classicSlave(), scheduler)) {
            assertThat(node.store.role().role()).isEqualTo(ReplicaRole.REPLICA);
            try (Socket socket = new Socket("127.0.0.1", node.strategy.listenAddress().getPort())) {
                socket.setSoTimeout(10_000);
                new DataOutputStream(socket.getOutputStream()).writeLong(0);
                assertThat(readAfterRefusal(socket.getInputStream())).as("closed without a byte").isEqualTo(-1);
            }
            node.store.becomeMaster(0, 0);
            long end = putMany(node.store, "x-", 3, 100);
            try (Socket socket = new Socket("127.0.0.1", node.strategy.listenAddress().getPort())) {
                socket.setSoTimeout(10_000);
                new DataOutputStream(socket.getOutputStream()).writeLong(0);
                DataInputStream in = new DataInputStream(socket.getInputStream());
                assertThat(in.readLong()).isZero();
                assertThat(in.readInt()).isEqualTo((int) end);
            }
        }
    }

    @Test
    void rolesSwapAtRuntime() throws Exception {
        try (HaNode a = master(); HaNode b = replicaOf(a)) {
            long end1 = putMany(a.store, "a-", 300, 500);
            await("b to reach " + end1, () -> caughtUp(a.store, b.store, end1));
            a.store.becomeReplica(0, b.haAddress(), 0);
            b.store.becomeMaster(0, 0);
            await("a to drop what it served as master", () -> a.strategy.servedSessions() == 0);
            long end2 = putMany(b.store, "b-", 300, 500);
            await("a to follow b to " + end2, () -> caughtUp(b.store, a.store, end2));
            assertSameLog(b.store, a.store, 0);
            assertSameQueues(b.store, a.store);
            await("b to see a's acknowledgement", () -> b.store.replicas().size() == 1
                    && b.store.replicas().get(0).ackedOffset() == end2);
            assertThat(a.store.replicas()).isEmpty();
        }
    }

    /**
     * The first byte read from a refused connection, -1 for a close: a close with the report still unread
     * may reach the client as a reset (the kernel's answer to unread data), which is a close too.
     */
    private static int readAfterRefusal(InputStream in) throws IOException {
        try {
            return in.read();
        } catch (SocketException reset) {
            return -1;
        }
    }
}
