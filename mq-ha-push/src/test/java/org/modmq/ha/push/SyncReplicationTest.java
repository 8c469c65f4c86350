package org.modmq.ha.push;

import static org.assertj.core.api.Assertions.assertThat;
import static org.modmq.ha.push.HaFixture.WAIT;
import static org.modmq.ha.push.HaFixture.assertSameLogsAndQueues;
import static org.modmq.ha.push.HaFixture.await;
import static org.modmq.ha.push.HaFixture.awaitCaughtUp;
import static org.modmq.ha.push.HaFixture.message;
import static org.modmq.ha.push.HaFixture.put;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.modmq.api.message.BrokerMessage;
import org.modmq.api.message.PutStatus;
import org.modmq.ha.push.HaFixture.Node;
import org.modmq.ha.push.wire.PushFrameLayout;
import org.modmq.ha.push.wire.Welcome;
import org.modmq.store.AppendedPut;
import org.modmq.store.PutResult;
import org.modmq.store.SyncStateListener;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Synchronous sends through the store: the push strategy reports acknowledgements and disconnects, the
 * store's tracker decides when a send is replicated (classic SYNC_MASTER, controller mode with
 * allAckInSyncStateSet).
 */
@Tag("integration")
@Timeout(90)
class SyncReplicationTest {

    private static final Logger LOG = LoggerFactory.getLogger(SyncReplicationTest.class);

    @TempDir
    Path root;

    @RegisterExtension
    final HaFixture fixture = new HaFixture();

    private static AppendedPut append(Node node, BrokerMessage message) {
        AppendedPut put = node.store().append(List.of(message), true);
        assertThat(put.stored()).as(put.appended().detail()).isTrue();
        return put;
    }

    private static PutResult outcome(AppendedPut put) throws Exception {
        return put.replicated().get(WAIT.toSeconds(), TimeUnit.SECONDS);
    }

    @Test
    void aSyncMastersSendCompletesOnlyAfterTheReplicaAcknowledged() throws Exception {
        try (Node master = fixture.open(root.resolve("master"), "brokerRole", "SYNC_MASTER",
                "syncFlushTimeout", "30000");
             RawReplica raw = new RawReplica(master.haSocket())) {
            raw.hello(0);
            raw.welcome();
            await(() -> master.store().replicas().size() == 1, WAIT, "raw replica to be streaming");
            AppendedPut put = append(master, message("Sync", 0, "wait for me"));
            long end = put.appended().endOffset();
            assertThat(raw.readData(0, end)).isEqualTo(end);
            assertThat(put.replicated()).as("the replica holds the bytes but did not acknowledge them").isNotDone();
            raw.ack(end);
            assertThat(outcome(put).status()).isEqualTo(PutStatus.PUT_OK);
            assertThat(master.store().replicas()).singleElement()
                    .satisfies(state -> assertThat(state.ackedOffset()).isEqualTo(end));
        }
    }

    @Test
    void aSyncMasterTimesOutWhenTheReplicaStopsAcknowledging() throws Exception {
        try (Node master = fixture.open(root.resolve("master"), "brokerRole", "SYNC_MASTER", "syncFlushTimeout", "300");
             RawReplica silent = new RawReplica(master.haSocket())) {
            silent.hello(0);
            silent.welcome();
            await(() -> master.store().replicas().size() == 1, WAIT, "raw replica to be streaming");
            AppendedPut put = append(master, message("T", 0, "never acknowledged"));
            long end = put.appended().endOffset();
            assertThat(silent.readData(0, end)).isEqualTo(end);
            assertThat(outcome(put).status()).isEqualTo(PutStatus.FLUSH_SLAVE_TIMEOUT);
            silent.ack(end);
            await(() -> master.store().replicas().get(0).ackedOffset() == end, WAIT, "the late ack to be recorded");
            AppendedPut next = append(master, message("T", 0, "acknowledged in time"));
            long nextEnd = next.appended().endOffset();
            assertThat(silent.readData(end, nextEnd - end)).isEqualTo(nextEnd);
            silent.ack(nextEnd);
            assertThat(outcome(next).status()).isEqualTo(PutStatus.PUT_OK);
        }
    }

    @Test
    void aSyncMasterWithoutReplicaAnswersSlaveNotAvailable() throws Exception {
        try (Node master = fixture.open(root.resolve("master"), "brokerRole", "SYNC_MASTER")) {
            AppendedPut put = append(master, message("T", 0, "alone"));
            assertThat(put.replicated()).isCompleted();
            assertThat(outcome(put).status()).isEqualTo(PutStatus.SLAVE_NOT_AVAILABLE);
        }
    }

    @Test
    void aSyncMasterWhoseReplicaIsTooFarBehindAnswersSlaveNotAvailable() throws Exception {
        try (Node master = fixture.open(root.resolve("master"), "brokerRole", "SYNC_MASTER",
                "haSlaveFallbehindMax", "4096", "haPushWindowBytes", "8192");
             RawReplica lagging = new RawReplica(master.haSocket())) {
            lagging.hello(0);
            lagging.welcome();
            await(() -> master.store().replicas().size() == 1, WAIT, "raw replica to be streaming");
            for (int i = 0; i < 40; i++) {
                assertThat(master.store().append(List.of(message("Far", 0, "m" + i + "x".repeat(300))), false)
                        .stored()).isTrue();
            }
            assertThat(master.store().replicas()).singleElement()
                    .satisfies(state -> assertThat(state.inSync()).isFalse());
            assertThat(outcome(append(master, message("Far", 0, "one more"))).status())
                    .isEqualTo(PutStatus.SLAVE_NOT_AVAILABLE);
        }
    }

    @Test
    void inControllerModeASendWaitsForEverySyncStateSetMemberAndALostMemberIsReported() throws Exception {
        try (Node master = fixture.open(root.resolve("master"), "enableControllerMode", "true", "brokerId", "0",
                "allAckInSyncStateSet", "true", "syncFlushTimeout", "30000")) {
            master.store().becomeMaster(1, 0);
            master.store().applySyncStateSet(Set.of(0L, 1L));
            BlockingQueue<Long> lost = new LinkedBlockingQueue<>();
            master.store().addSyncStateListener(new SyncStateListener() {
                @Override
                public void replicaLost(long brokerId) {
                    lost.add(brokerId);
                }

                @Override
                public void replicaCaughtUp(long brokerId) {
                }
            });
            try (RawReplica raw = new RawReplica(master.haSocket())) {
                raw.hello(1, 1, List.of());
                Welcome welcome = raw.welcome();
                assertThat(welcome.epoch()).isEqualTo(1);
                await(() -> master.store().replicas().size() == 1, WAIT, "raw replica to be streaming");
                AppendedPut put = append(master, message("Ctrl", 0, "both must hold it"));
                long end = put.appended().endOffset();
                RawReplica.Frame data = raw.next();
                assertThat(data.type()).isEqualTo(PushFrameLayout.DATA);
                assertThat(data.dataEpoch()).isEqualTo(1);
                assertThat(data.confirm()).as("nothing confirmed before member 1 acknowledged").isZero();
                assertThat(put.replicated()).isNotDone();
                assertThat(master.store().getConfirmOffset()).isZero();

                raw.ack(end);
                assertThat(outcome(put).status()).isEqualTo(PutStatus.PUT_OK);
                RawReplica.Frame heartbeat = raw.next();
                assertThat(heartbeat.type()).as("the master tells the new confirm offset at once")
                        .isEqualTo(PushFrameLayout.HEARTBEAT);
                assertThat(heartbeat.confirm()).isEqualTo(end);
                assertThat(master.store().getConfirmOffset()).isEqualTo(end);
            }
            assertThat(lost.poll(WAIT.toSeconds(), TimeUnit.SECONDS)).as("member 1 reported lost").isEqualTo(1L);
        }
    }

    @Test
    void syncReplicationToARealReplicaCostsAboutOneRoundTrip() throws Exception {
        try (Node master = fixture.open(root.resolve("master"), "enableControllerMode", "true", "brokerId", "0",
                "allAckInSyncStateSet", "true");
             Node replica = fixture.open(root.resolve("replica"), "enableControllerMode", "true", "brokerId", "1");
             Node classicMaster = fixture.open(root.resolve("classic-master"), "brokerRole", "SYNC_MASTER");
             Node classicReplica = fixture.open(root.resolve("classic-replica"), "brokerRole", "SLAVE")) {
            master.store().becomeMaster(1, 0);
            master.store().applySyncStateSet(Set.of(0L, 1L));
            replica.store().becomeReplica(1, master.haAddress(), 1);
            classicReplica.store().becomeReplica(0, classicMaster.haAddress(), 1);
            await(() -> master.store().replicas().size() == 1 && classicMaster.store().replicas().size() == 1, WAIT,
                    "replicas to connect");
            for (Node node : List.of(master, classicMaster)) {
                long[] nanos = new long[500];
                for (int i = 0; i < nanos.length; i++) {
                    long begin = System.nanoTime();
                    put(node.store(), message("Latency", i % 4, "message-" + i + "-" + "y".repeat(100)));
                    nanos[i] = System.nanoTime() - begin;
                }
                LOG.info("{}: {} sequential synchronous puts, put to replicated: {}",
                        node == master ? "controller mode, all-ack" : "SYNC_MASTER", nanos.length, summary(nanos));
            }
            awaitCaughtUp(master, replica);
            awaitCaughtUp(classicMaster, classicReplica);
            await(() -> replica.store().getConfirmOffset() == master.store().getCommitLogMaxOffset(), WAIT,
                    "the replica's confirm offset");
            assertSameLogsAndQueues(master, replica);
            assertSameLogsAndQueues(classicMaster, classicReplica);
        }
    }

    private static String summary(long[] nanos) {
        long[] sorted = nanos.clone();
        Arrays.sort(sorted);
        List<String> parts = new ArrayList<>();
        parts.add(String.format(Locale.ROOT, "mean %.1f us", Arrays.stream(nanos).average().orElse(0) / 1000.0));
        parts.add(String.format(Locale.ROOT, "p50 %.1f us", sorted[sorted.length / 2] / 1000.0));
        parts.add(String.format(Locale.ROOT, "p99 %.1f us", sorted[(int) (sorted.length * 0.99)] / 1000.0));
        return String.join(", ", parts);
    }
}
