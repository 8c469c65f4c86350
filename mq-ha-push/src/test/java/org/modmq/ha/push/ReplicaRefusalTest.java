package org.modmq.ha.push;

import static org.assertj.core.api.Assertions.assertThat;
import static org.modmq.ha.push.HaFixture.addressOf;
import static org.modmq.ha.push.HaFixture.await;
import static org.modmq.ha.push.HaFixture.burst;
import static org.modmq.ha.push.HaFixture.bytesOf;
import static org.modmq.ha.push.HaFixture.haConfig;

import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.modmq.api.config.BrokerRole;
import org.modmq.ha.push.replica.MasterFollower;
import org.modmq.store.MessageStore;

/** A replica whose log the master cannot continue is refused and stops following, its log untouched. */
@Tag("integration")
@Timeout(60)
class ReplicaRefusalTest {

    private static final Duration WAIT = Duration.ofSeconds(20);

    @TempDir
    Path root;

    private final HaFixture fixture = new HaFixture();

    @AfterEach
    void stop() {
        fixture.close();
    }

    @Test
    void refusesReplicaWithLongerLog() throws Exception {
        assertRefused(20, "same", 30, "same");
    }

    @Test
    void refusesReplicaWhoseTailDiffers() throws Exception {
        assertRefused(30, "mastr", 20, "other");
    }

    private void assertRefused(int masterCount, String masterTag, int replicaCount, String replicaTag)
            throws Exception {
        Path masterRoot = root.resolve("master");
        Path replicaRoot = root.resolve("replica");
        try (MessageStore masterStore = fixture.openStore(masterRoot);
             MessageStore replicaStore = fixture.openStore(replicaRoot);
             PushReplicationStrategy master = fixture.strategy(haConfig(), BrokerRole.SYNC_MASTER, masterRoot,
                     masterStore);
             PushReplicationStrategy replica = fixture.strategy(haConfig("haReconnectMinMillis", "20"),
                     BrokerRole.SLAVE, replicaRoot, replicaStore)) {
            burst(masterStore, null, masterCount, 100, masterTag);
            burst(replicaStore, null, replicaCount, 100, replicaTag);
            byte[] before = bytesOf(replicaStore.replicatedLog());
            master.start();
            replica.followMaster(addressOf(master));
            await(() -> replica.followerState() == MasterFollower.State.REFUSED, WAIT, "the master's refusal");
            assertThat(master.replicas()).isEmpty();
            assertThat(bytesOf(replicaStore.replicatedLog())).isEqualTo(before);

            // following again is an explicit operator decision: it asks once more and is refused again
            replica.followMaster(addressOf(master));
            await(() -> replica.followerState() == MasterFollower.State.REFUSED, WAIT, "the second refusal");
        }
    }
}
