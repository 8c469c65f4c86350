package org.modmq.ha.push;

import static org.assertj.core.api.Assertions.assertThat;
import static org.modmq.ha.push.HaFixture.WAIT;
import static org.modmq.ha.push.HaFixture.assertSameLogsAndQueues;
import static org.modmq.ha.push.HaFixture.await;
import static org.modmq.ha.push.HaFixture.awaitCaughtUp;
import static org.modmq.ha.push.HaFixture.burst;
import static org.modmq.ha.push.HaFixture.filesUnder;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.modmq.api.spi.replication.ReplicaRole;
import org.modmq.ha.push.HaFixture.Node;
import org.modmq.ha.push.replica.MasterFollower;

/** Classic (epoch 0) master and replica stores in one process, replicating over 127.0.0.1. */
@Tag("integration")
@Timeout(90)
class PushReplicationTest {

    @TempDir
    Path root;

    @RegisterExtension
    final HaFixture fixture = new HaFixture();

    @Test
    void concurrentWritersAreReplicatedAcrossSegmentsByteForByte() throws Exception {
        try (Node master = fixture.open(root.resolve("master"), "brokerRole", "SYNC_MASTER");
             Node replica = fixture.open(root.resolve("replica"), "brokerRole", "SLAVE", "brokerId", "1",
                     "haMasterAddress", master.haAddress())) {
            assertThat(replica.store().role().role()).isEqualTo(ReplicaRole.REPLICA);
            await(() -> master.store().replicas().size() == 1, WAIT, "replica to connect");
            ExecutorService writers = Executors.newFixedThreadPool(4);
            try {
                List<Future<Long>> done = new ArrayList<>();
                for (int w = 0; w < 4; w++) {
                    String tag = "writer" + w;
                    // each put of a SYNC_MASTER returns once the replica acknowledged it
                    done.add(writers.submit(() -> burst(master.store(), 350, 2500, tag)));
                }
                for (Future<Long> writer : done) {
                    writer.get(60, TimeUnit.SECONDS);
                }
            } finally {
                writers.shutdownNow();
            }
            long end = master.store().getCommitLogMaxOffset();
            assertThat(end).as("the bursts span several 1 MiB segments").isGreaterThan(3L << 20);
            awaitCaughtUp(master, replica);
            assertSameLogsAndQueues(master, replica);
            assertThat(filesUnder(replica.root().resolve("commitlog"))).hasSizeGreaterThan(3);
            await(() -> master.store().replicas().get(0).ackedOffset() == end, WAIT, "last acknowledgement");
            assertThat(master.store().replicas()).singleElement().satisfies(state -> {
                assertThat(state.inSync()).isTrue();
                assertThat(state.brokerId()).isEqualTo(1);
                assertThat(state.address()).startsWith("127.0.0.1:");
            });
            assertThat(replica.strategy().followerState()).isEqualTo(MasterFollower.State.FOLLOWING);
            assertThat(replica.store().epochs()).isEmpty();
        }
    }

    @Test
    void replicaReconnectsToARestartedMaster() throws Exception {
        Path masterRoot = root.resolve("master");
        int port;
        String address;
        try (Node first = fixture.open(masterRoot, "brokerRole", "ASYNC_MASTER")) {
            port = first.haSocket().getPort();
            address = first.haAddress();
            burst(first.store(), 20, 500, "zero");
        }
        try (Node replica = fixture.open(root.resolve("replica"), "brokerRole", "SLAVE", "haMasterAddress", address)) {
            await(() -> replica.strategy().followerState() == MasterFollower.State.CONNECTING, WAIT,
                    "replica to try its absent master");
            try (Node master = fixture.open(masterRoot, "brokerRole", "ASYNC_MASTER",
                    "haListenPort", String.valueOf(port))) {
                await(() -> replica.strategy().followerState() == MasterFollower.State.FOLLOWING, WAIT,
                        "replica to reach the started master");
                burst(master.store(), 100, 500, "one");
                awaitCaughtUp(master, replica);
            }
            await(() -> replica.strategy().followerState() == MasterFollower.State.CONNECTING, WAIT,
                    "replica to lose its master");
            try (Node master = fixture.open(masterRoot, "brokerRole", "ASYNC_MASTER",
                    "haListenPort", String.valueOf(port))) {
                await(() -> master.store().replicas().size() == 1, WAIT, "replica to reconnect");
                burst(master.store(), 100, 500, "two");
                awaitCaughtUp(master, replica);
                assertThat(replica.strategy().followerState()).isEqualTo(MasterFollower.State.FOLLOWING);
                assertSameLogsAndQueues(master, replica);
            }
        }
    }
}
