package org.modmq.ha.push;

import static org.assertj.core.api.Assertions.assertThat;
import static org.modmq.ha.push.HaFixture.addressOf;
import static org.modmq.ha.push.HaFixture.await;
import static org.modmq.ha.push.HaFixture.burst;
import static org.modmq.ha.push.HaFixture.bytesOf;
import static org.modmq.ha.push.HaFixture.filesUnder;
import static org.modmq.ha.push.HaFixture.haConfig;
import static org.modmq.ha.push.HaFixture.WAIT;
import static org.modmq.ha.push.HaFixture.names;

import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.modmq.api.config.BrokerRole;
import org.modmq.ha.push.replica.MasterFollower;
import org.modmq.store.MessageStore;

/** Master and replica stores in one process, replicating over 127.0.0.1. */
@Tag("integration")
@Timeout(60)
class PushReplicationTest {

    @TempDir
    Path root;

    @RegisterExtension
    final HaFixture fixture = new HaFixture();

    @Test
    void replicatesBurstAcrossSegmentsByteForByte() throws Exception {
        try (HaFixture.Pair ha = fixture.pair(root, BrokerRole.SYNC_MASTER, haConfig())) {
            ha.master().start();
            ha.replica().start();
            ha.replica().followMaster(addressOf(ha.master()));
            long end = burst(ha.masterStore(), ha.master(), 1500, 2500, "burst");
            assertThat(end).as("the burst spans several 1 MiB segments").isGreaterThan(3L << 20);

            await(() -> ha.replicaStore().getCommitLogMaxOffset() == ha.masterStore().getCommitLogMaxOffset(), WAIT,
                    "replica to reach " + end);
            assertThat(ha.master().awaitReplicated(end, WAIT).get(10, TimeUnit.SECONDS)).isNull();
            assertSameLogsAndQueues(ha.masterStore(), ha.masterRoot(), ha.replicaStore(), ha.replicaRoot());
            assertThat(filesUnder(ha.replicaRoot().resolve("commitlog"))).hasSizeGreaterThan(3);
            assertThat(ha.master().replicas()).singleElement().satisfies(state -> {
                assertThat(state.ackedOffset()).isEqualTo(end);
                assertThat(state.inSync()).isTrue();
                assertThat(state.address()).startsWith("127.0.0.1:");
            });
            assertThat(ha.replica().followerState()).isEqualTo(MasterFollower.State.FOLLOWING);
        }
    }

    @Test
    void restartedReplicaCatchesUp() throws Exception {
        Path masterRoot = root.resolve("master");
        Path replicaRoot = root.resolve("replica");
        try (MessageStore masterStore = fixture.openStore(masterRoot);
             PushReplicationStrategy master = fixture.strategy(haConfig(), BrokerRole.ASYNC_MASTER, masterRoot,
                     masterStore)) {
            master.start();
            long firstEnd;
            try (MessageStore replicaStore = fixture.openStore(replicaRoot);
                 PushReplicationStrategy replica = fixture.strategy(haConfig(), BrokerRole.SLAVE, replicaRoot,
                         replicaStore)) {
                replica.followMaster(addressOf(master));
                await(() -> master.replicas().size() == 1, WAIT, "replica to connect");
                firstEnd = burst(masterStore, master, 800, 2000, "first");
                // closed while the burst is still streaming: the replica holds some prefix
            }
            await(() -> master.replicas().isEmpty(), WAIT, "master to notice the replica left");
            long end = burst(masterStore, master, 700, 2000, "second");
            assertThat(end).isGreaterThan(firstEnd);
            try (MessageStore replicaStore = fixture.openStore(replicaRoot);
                 PushReplicationStrategy replica = fixture.strategy(haConfig(), BrokerRole.SLAVE, replicaRoot,
                         replicaStore)) {
                assertThat(replicaStore.getCommitLogMaxOffset()).isLessThanOrEqualTo(firstEnd);
                replica.followMaster(addressOf(master));
                await(() -> replicaStore.getCommitLogMaxOffset() == end, WAIT, "restarted replica to reach " + end);
                assertSameLogsAndQueues(masterStore, masterRoot, replicaStore, replicaRoot);
            }
        }
    }

    @Test
    void replicaConfiguredWithMasterAddressFollowsFromStart() throws Exception {
        Path masterRoot = root.resolve("master");
        Path replicaRoot = root.resolve("replica");
        try (MessageStore masterStore = fixture.openStore(masterRoot);
             MessageStore replicaStore = fixture.openStore(replicaRoot);
             PushReplicationStrategy master = fixture.strategy(haConfig(), BrokerRole.SYNC_MASTER, masterRoot,
                     masterStore)) {
            master.start();
            long before = burst(masterStore, master, 50, 300, "before");
            try (PushReplicationStrategy replica = fixture.strategy(
                    haConfig("haMasterAddress", addressOf(master)), BrokerRole.SLAVE, replicaRoot, replicaStore)) {
                replica.start();
                await(() -> replicaStore.getCommitLogMaxOffset() == before, WAIT, "replica to copy the backlog");
                long end = burst(masterStore, master, 50, 300, "after");
                master.awaitReplicated(end, WAIT).get(10, TimeUnit.SECONDS);
                assertThat(replicaStore.getCommitLogMaxOffset()).isEqualTo(end);
                replica.followMaster(null);
                await(() -> master.replicas().isEmpty(), WAIT, "replica to stop following");
                assertThat(replica.followerState()).isEqualTo(MasterFollower.State.IDLE);
            }
        }
    }

    @Test
    void replicaReconnectsToARestartedMaster() throws Exception {
        Path masterRoot = root.resolve("master");
        Path replicaRoot = root.resolve("replica");
        try (MessageStore masterStore = fixture.openStore(masterRoot);
             MessageStore replicaStore = fixture.openStore(replicaRoot);
             PushReplicationStrategy replica = fixture.strategy(
                     haConfig("haReconnectMinMillis", "20", "haReconnectMaxMillis", "200"), BrokerRole.SLAVE,
                     replicaRoot, replicaStore)) {
            int port;
            try (PushReplicationStrategy master = fixture.strategy(haConfig(), BrokerRole.SYNC_MASTER, masterRoot,
                    masterStore)) {
                master.start();
                port = master.listenAddress().getPort();
                replica.followMaster(addressOf(master));
                long end = burst(masterStore, master, 100, 500, "one");
                master.awaitReplicated(end, WAIT).get(10, TimeUnit.SECONDS);
            }
            await(() -> replica.followerState() == MasterFollower.State.CONNECTING, WAIT, "replica to lose its master");
            long end = burst(masterStore, null, 100, 500, "two");
            try (PushReplicationStrategy master = fixture.strategy(haConfig("haListenPort", String.valueOf(port)),
                    BrokerRole.SYNC_MASTER, masterRoot, masterStore)) {
                master.start();
                await(() -> replicaStore.getCommitLogMaxOffset() == end, WAIT, "replica to reconnect and catch up");
                await(() -> replica.followerState() == MasterFollower.State.FOLLOWING, WAIT, "state FOLLOWING");
                assertSameLogsAndQueues(masterStore, masterRoot, replicaStore, replicaRoot);
            }
        }
    }

    static void assertSameLogsAndQueues(MessageStore masterStore, Path masterRoot, MessageStore replicaStore,
                                        Path replicaRoot) throws Exception {
        // The replica's commit log end is published before its own dispatcher has built the queues.
        await(() -> queuesCaughtUp(masterStore, replicaStore), WAIT, "replica to dispatch its ConsumeQueues");
        assertThat(replicaStore.getCommitLogMinOffset()).isEqualTo(masterStore.getCommitLogMinOffset());
        assertThat(bytesOf(replicaStore.replicatedLog())).isEqualTo(bytesOf(masterStore.replicatedLog()));
        Map<String, byte[]> masterLog = filesUnder(masterRoot.resolve("commitlog"));
        Map<String, byte[]> replicaLog = filesUnder(replicaRoot.resolve("commitlog"));
        assertThat(names(replicaLog)).isEqualTo(names(masterLog)).isNotEmpty();
        masterLog.forEach((name, bytes) -> assertThat(replicaLog.get(name)).as("commitlog/" + name).isEqualTo(bytes));
        assertThat(replicaStore.topics()).isEqualTo(masterStore.topics());
        for (String topic : masterStore.topics()) {
            assertThat(replicaStore.queueIds(topic)).isEqualTo(masterStore.queueIds(topic));
            for (int queueId : masterStore.queueIds(topic)) {
                assertThat(replicaStore.getMaxOffsetInQueue(topic, queueId))
                        .isEqualTo(masterStore.getMaxOffsetInQueue(topic, queueId));
            }
        }
        Map<String, byte[]> masterQueues = filesUnder(masterRoot.resolve("consumequeue"));
        Map<String, byte[]> replicaQueues = filesUnder(replicaRoot.resolve("consumequeue"));
        assertThat(names(replicaQueues)).isEqualTo(names(masterQueues)).isNotEmpty();
        masterQueues.forEach((name, bytes) ->
                assertThat(replicaQueues.get(name)).as("consumequeue/" + name).isEqualTo(bytes));
    }

    private static boolean queuesCaughtUp(MessageStore masterStore, MessageStore replicaStore) {
        for (String topic : masterStore.topics()) {
            for (int queueId : masterStore.queueIds(topic)) {
                if (replicaStore.getMaxOffsetInQueue(topic, queueId) != masterStore.getMaxOffsetInQueue(topic, queueId)) {
                    return false;
                }
            }
        }
        return true;
    }
}
