package org.modmq.ha.push;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.modmq.ha.push.HaFixture.WAIT;
import static org.modmq.ha.push.HaFixture.await;

import java.nio.file.Path;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.modmq.api.config.ConfigException;
import org.modmq.ha.push.HaFixture.Node;
import org.modmq.ha.push.replica.MasterFollower;

/** The strategy's own contract: the listener in every role, transitions that check first, idempotent close. */
@Tag("integration")
@Timeout(60)
class PushReplicationStrategyTest {

    @TempDir
    Path root;

    @RegisterExtension
    final HaFixture fixture = new HaFixture();

    @Test
    void listensInEveryRoleAndRefusesABadAddressBeforeChangingAnything() throws Exception {
        try (Node master = fixture.open(root.resolve("master"), "brokerRole", "ASYNC_MASTER");
             Node replica = fixture.open(root.resolve("replica"), "brokerRole", "SLAVE", "brokerId", "1",
                     "haMasterAddress", master.haAddress())) {
            assertThat(replica.haSocket()).as("a replica binds its HA port too").isNotNull();
            await(() -> master.store().replicas().size() == 1, WAIT, "replica to connect");
            // The master counts the replica once its hello arrives; the replica follows once it has the answer.
            await(() -> replica.strategy().followerState() == MasterFollower.State.FOLLOWING, WAIT,
                    "replica to follow");
            assertThatThrownBy(() -> replica.strategy().becomeReplica(0, "nohost", 1))
                    .isInstanceOf(ConfigException.class).hasMessageContaining("nohost");
            assertThatThrownBy(() -> master.strategy().becomeReplica(0, "127.0.0.1:x", 0))
                    .isInstanceOf(ConfigException.class);
            assertThat(replica.strategy().followerState()).isEqualTo(MasterFollower.State.FOLLOWING);
            assertThat(master.store().replicas()).as("the master still serves").hasSize(1);
            assertThatThrownBy(() -> master.strategy().start()).isInstanceOf(IllegalStateException.class);
        }
    }
}
