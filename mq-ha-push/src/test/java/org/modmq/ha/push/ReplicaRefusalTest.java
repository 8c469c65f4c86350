package org.modmq.ha.push;

import static org.assertj.core.api.Assertions.assertThat;
import static org.modmq.ha.push.HaFixture.WAIT;
import static org.modmq.ha.push.HaFixture.await;
import static org.modmq.ha.push.HaFixture.awaitCaughtUp;
import static org.modmq.ha.push.HaFixture.burst;
import static org.modmq.ha.push.HaFixture.bytesOf;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.modmq.api.spi.replication.EpochEntry;
import org.modmq.ha.push.HaFixture.Node;
import org.modmq.ha.push.replica.MasterFollower;
import org.modmq.ha.push.wire.PushFrameLayout;
import org.modmq.ha.push.wire.Refusal;

/** What a master refuses, why (the REFUSE reason), and that a refused replica's log stays as it was. */
@Tag("integration")
@Timeout(60)
class ReplicaRefusalTest {

    @TempDir
    Path root;

    @RegisterExtension
    final HaFixture fixture = new HaFixture();

    @Test
    void refusesAClassicReplicaWithALongerLog() throws Exception {
        assertClassicRefused(20, "same", 30, "same");
    }

    @Test
    void refusesAClassicReplicaWhoseTailDiffers() throws Exception {
        assertClassicRefused(30, "mastr", 20, "other");
    }

    private void assertClassicRefused(int masterCount, String masterTag, int replicaCount, String replicaTag)
            throws Exception {
        try (Node master = fixture.open(root.resolve("master"), "brokerRole", "ASYNC_MASTER");
             Node replica = fixture.open(root.resolve("replica"), "brokerRole", "ASYNC_MASTER")) {
            burst(master.store(), masterCount, 100, masterTag);
            burst(replica.store(), replicaCount, 100, replicaTag);
            byte[] before = bytesOf(replica.log());
            replica.store().becomeReplica(0, master.haAddress(), 1);
            await(() -> replica.strategy().followerState() == MasterFollower.State.REFUSED, WAIT, "the refusal");
            assertThat(master.store().replicas()).isEmpty();
            assertThat(bytesOf(replica.log())).isEqualTo(before);

            // following again is an explicit decision: it asks once more and is refused again
            replica.store().becomeReplica(0, null, 1);
            replica.store().becomeReplica(0, master.haAddress(), 1);
            await(() -> replica.strategy().followerState() == MasterFollower.State.REFUSED, WAIT, "the second refusal");
            assertThat(bytesOf(replica.log())).isEqualTo(before);
        }
    }

    @Test
    void aBrokerThatIsAReplicaRefusesReplicasAsNotMaster() throws Exception {
        try (Node replica = fixture.open(root.resolve("replica"), "brokerRole", "SLAVE");
             RawReplica raw = new RawReplica(replica.haSocket())) {
            RawReplica.Frame frame = raw.next();
            assertThat(frame.type()).isEqualTo(PushFrameLayout.REFUSE);
            assertThat(Refusal.of(frame.refusalCode())).isEqualTo(Refusal.NOT_MASTER);
            assertThat(raw.closedByPeer(10_000)).isTrue();
        }
    }

    @Test
    void aMasterOlderThanTheReplicaIsRefusedAsStaleAndTheReplicaKeepsTrying() throws Exception {
        try (Node stale = fixture.open(root.resolve("stale"), "enableControllerMode", "true", "brokerId", "1");
             Node fresh = fixture.open(root.resolve("fresh"), "enableControllerMode", "true", "brokerId", "2");
             Node replica = fixture.open(root.resolve("replica"), "enableControllerMode", "true", "brokerId", "3")) {
            stale.store().becomeMaster(1, 1);
            burst(stale.store(), 10, 100, "old");
            fresh.store().becomeMaster(2, 2);
            burst(fresh.store(), 10, 100, "new");

            try (RawReplica raw = new RawReplica(stale.haSocket())) {
                raw.hello(3, 2, List.of());
                RawReplica.Frame frame = raw.next();
                assertThat(frame.type()).isEqualTo(PushFrameLayout.REFUSE);
                assertThat(Refusal.of(frame.refusalCode())).isEqualTo(Refusal.STALE_MASTER);
                assertThat(raw.closedByPeer(10_000)).isTrue();
            }

            replica.store().becomeReplica(2, stale.haAddress(), 3);
            await(() -> replica.strategy().followerState() == MasterFollower.State.CONNECTING, WAIT, "a retry");
            assertThat(replica.store().getCommitLogMaxOffset()).as("nothing taken from a stale master").isZero();
            assertThat(stale.store().replicas()).isEmpty();

            replica.store().becomeReplica(2, fresh.haAddress(), 3);
            awaitCaughtUp(fresh, replica);
            assertThat(replica.store().epochs()).containsExactly(new EpochEntry(2, 0));
        }
    }

    @Test
    void historiesWithoutCommonEpochAreRefusedAsDiverged() throws Exception {
        try (Node master = fixture.open(root.resolve("master"), "enableControllerMode", "true", "brokerId", "1");
             Node replica = fixture.open(root.resolve("replica"), "enableControllerMode", "true", "brokerId", "2")) {
            replica.store().becomeMaster(2, 2);
            burst(replica.store(), 15, 100, "two");
            master.store().becomeMaster(3, 1);
            burst(master.store(), 15, 100, "three");
            byte[] before = bytesOf(replica.log());
            replica.store().becomeReplica(3, master.haAddress(), 2);
            await(() -> replica.strategy().followerState() == MasterFollower.State.REFUSED, WAIT, "the refusal");
            assertThat(bytesOf(replica.log())).isEqualTo(before);
            assertThat(replica.store().epochs()).containsExactly(new EpochEntry(2, 0));
        }
    }
}
