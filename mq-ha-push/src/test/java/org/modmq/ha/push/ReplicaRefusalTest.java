package org.modmq.ha.push;

import static org.assertj.core.api.Assertions.assertThat;
import static org.modmq.ha.push.HaFixture.WAIT;
import static org.modmq.ha.push.HaFixture.addressOf;
import static org.modmq.ha.push.HaFixture.await;
import static org.modmq.ha.push.HaFixture.burst;
import static org.modmq.ha.push.HaFixture.bytesOf;
import static org.modmq.ha.push.HaFixture.haConfig;

import java.nio.file.Path;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.modmq.api.config.BrokerRole;
import org.modmq.ha.push.replica.MasterFollower;

/** A replica whose log the master cannot continue is refused and stops following, its log untouched. */
@Tag("integration")
@Timeout(60)
class ReplicaRefusalTest {

    @TempDir
    Path root;

    @RegisterExtension
    final HaFixture fixture = new HaFixture();

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
        try (HaFixture.Pair ha = fixture.pair(root, BrokerRole.SYNC_MASTER, haConfig("haReconnectMinMillis", "20"))) {
            burst(ha.masterStore(), null, masterCount, 100, masterTag);
            burst(ha.replicaStore(), null, replicaCount, 100, replicaTag);
            byte[] before = bytesOf(ha.replicaStore().replicatedLog());
            ha.master().start();
            ha.replica().followMaster(addressOf(ha.master()));
            await(() -> ha.replica().followerState() == MasterFollower.State.REFUSED, WAIT, "the master's refusal");
            assertThat(ha.master().replicas()).isEmpty();
            assertThat(bytesOf(ha.replicaStore().replicatedLog())).isEqualTo(before);

            // following again is an explicit operator decision: it asks once more and is refused again
            ha.replica().followMaster(addressOf(ha.master()));
            await(() -> ha.replica().followerState() == MasterFollower.State.REFUSED, WAIT, "the second refusal");
        }
    }
}
