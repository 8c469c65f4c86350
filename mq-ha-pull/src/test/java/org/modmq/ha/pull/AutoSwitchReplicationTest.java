package org.modmq.ha.pull;

import static org.assertj.core.api.Assertions.assertThat;
import static org.modmq.ha.pull.LogAssertions.assertSameLog;
import static org.modmq.ha.pull.LogAssertions.assertSameQueues;
import static org.modmq.ha.pull.LogAssertions.caughtUp;
import static org.modmq.ha.pull.TestStores.SEGMENT;
import static org.modmq.ha.pull.TestStores.await;
import static org.modmq.ha.pull.TestStores.controller;
import static org.modmq.ha.pull.TestStores.putMany;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.modmq.api.spi.replication.EpochEntry;
import org.modmq.api.spi.replication.ReplicaState;
import org.modmq.testkit.NettyLeakCheck;

/** AutoSwitch HA between real stores in controller mode on loopback, through the store's transitions. */
@Tag("integration")
@Timeout(90)
@ExtendWith(NettyLeakCheck.class)
class AutoSwitchReplicationTest {

    @TempDir
    Path dir;

    private final ScheduledExecutorService scheduler = Executors.newScheduledThreadPool(2);

    @AfterEach
    void stop() {
        scheduler.shutdownNow();
    }

    private HaNode node(String name, long brokerId) {
        return HaNode.open(dir.resolve(name), controller(brokerId), scheduler);
    }

    private static void assertIdentical(HaNode master, HaNode replica) {
        assertSameLog(master.store, replica.store, replica.store.getCommitLogMinOffset());
        assertSameQueues(master.store, replica.store);
        assertThat(replica.store.epochs()).isEqualTo(master.store.epochs());
    }

    @Test
    void replicatesAcrossSegmentsWithEpochsAndConfirmOffset() throws Exception {
        try (HaNode a = node("a", 1); HaNode b = node("b", 2)) {
            a.store.becomeMaster(1, 1);
            b.store.becomeReplica(1, a.haAddress(), 2);
            await("b to connect", () -> !a.store.replicas().isEmpty());
            long end = putMany(a.store, "burst-", 2_500, 1_000);
            assertThat(end).isGreaterThan(2L * SEGMENT);
            await("b to reach " + end, () -> caughtUp(a.store, b.store, end));
            assertIdentical(a, b);
            assertThat(b.store.epochs()).containsExactly(new EpochEntry(1, 0));
            await("b's confirm offset to reach " + end, () -> b.store.getConfirmOffset() == end);
            ReplicaState seen = a.store.replicas().get(0);
            assertThat(seen.brokerId()).isEqualTo(2);
            await("a to see b's acknowledgement", () -> a.store.replicas().get(0).ackedOffset() == end);
        }
    }

    @Test
    void aReplicaThatWasBehindCatchesUpAcrossSeveralEpochs() throws Exception {
        try (HaNode a = node("a", 1)) {
            a.store.becomeMaster(1, 1);
            try (HaNode b = node("b", 2)) {
                b.store.becomeReplica(1, a.haAddress(), 2);
                long first = putMany(a.store, "e1-", 300, 800);
                await("b to reach " + first, () -> caughtUp(a.store, b.store, first));
            }
            putMany(a.store, "e1-more-", 300, 800);
            a.store.becomeMaster(2, 1);
            putMany(a.store, "e2-", 700, 900);
            a.store.becomeMaster(3, 1);
            a.store.becomeMaster(4, 1);
            long end = putMany(a.store, "e4-", 700, 900);
            List<EpochEntry> epochs = a.store.epochs();
            assertThat(epochs).hasSize(4);
            try (HaNode b = node("b", 2)) {
                assertThat(b.store.getCommitLogMaxOffset()).isLessThan(epochs.get(1).startOffset());
                b.store.becomeReplica(4, a.haAddress(), 2);
                await("b to reach " + end, () -> caughtUp(a.store, b.store, end));
                assertIdentical(a, b);
                assertThat(b.store.epochs()).as("an epoch without bytes is kept too").isEqualTo(epochs);
            }
        }
    }
}
