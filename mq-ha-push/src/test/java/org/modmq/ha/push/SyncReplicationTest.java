package org.modmq.ha.push;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.modmq.ha.push.HaFixture.WAIT;
import static org.modmq.ha.push.HaFixture.addressOf;
import static org.modmq.ha.push.HaFixture.await;
import static org.modmq.ha.push.HaFixture.burst;
import static org.modmq.ha.push.HaFixture.haConfig;
import static org.modmq.ha.push.HaFixture.message;
import static org.modmq.ha.push.HaFixture.put;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.modmq.api.config.BrokerRole;
import org.modmq.api.message.PutStatus;
import org.modmq.api.message.PutStatusException;
import org.modmq.store.MessageStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** What a SYNC_MASTER's awaitReplicated answers, and how long it takes. */
@Tag("integration")
@Timeout(60)
class SyncReplicationTest {

    private static final Logger LOG = LoggerFactory.getLogger(SyncReplicationTest.class);

    @TempDir
    Path root;

    @RegisterExtension
    final HaFixture fixture = new HaFixture();

    @Test
    void awaitCompletesOnAckAndMeasuresLatency() throws Exception {
        try (HaFixture.Pair ha = fixture.pair(root, BrokerRole.SYNC_MASTER, haConfig())) {
            MessageStore masterStore = ha.masterStore();
            PushReplicationStrategy master = ha.master();
            master.start();
            ha.replica().followMaster(addressOf(master));
            await(() -> master.replicas().size() == 1, WAIT, "replica to connect");
            burst(masterStore, master, 200, 200, "warmup");
            for (int i = 0; i < 200; i++) {
                long end = put(masterStore, message("Warm", 0, "w" + i));
                master.appended(end);
                master.awaitReplicated(end, WAIT).get(10, TimeUnit.SECONDS);
            }
            int rounds = 2000;
            long[] replicateNanos = new long[rounds];
            long[] putAndReplicateNanos = new long[rounds];
            for (int i = 0; i < rounds; i++) {
                long begin = System.nanoTime();
                long end = put(masterStore, message("Latency", i % 4, "message-" + i + "-" + "y".repeat(100)));
                long appended = System.nanoTime();
                master.appended(end);
                master.awaitReplicated(end, WAIT).get(10, TimeUnit.SECONDS);
                long done = System.nanoTime();
                replicateNanos[i] = done - appended;
                putAndReplicateNanos[i] = done - begin;
                assertThat(ha.replicaStore().getCommitLogMaxOffset()).isGreaterThanOrEqualTo(end);
            }
            LOG.info("push latency over {} sequential 1-message appends: append->replicated {}; put+replicated {}",
                    rounds, summary(replicateNanos), summary(putAndReplicateNanos));
            assertThat(master.replicas()).singleElement()
                    .satisfies(state -> assertThat(state.ackedOffset()).isEqualTo(masterStore.getCommitLogMaxOffset()));
        }
    }

    @Test
    void timesOutWhenTheReplicaStopsAcknowledging() throws Exception {
        Path masterRoot = root.resolve("master");
        try (MessageStore masterStore = fixture.openStore(masterRoot);
             PushReplicationStrategy master = fixture.strategy(haConfig(), BrokerRole.SYNC_MASTER, masterRoot,
                     masterStore)) {
            master.start();
            try (RawReplica silent = new RawReplica(master.listenAddress())) {
                silent.hello(0);
                await(() -> master.replicas().size() == 1, WAIT, "raw replica to be streaming");
                long end = put(masterStore, message("T", 0, "never acknowledged"));
                master.appended(end);
                assertThat(silent.readData(0, end)).isEqualTo(end);
                long begin = System.nanoTime();
                CompletableFuture<Void> future = master.awaitReplicated(end, Duration.ofMillis(300));
                assertThatThrownBy(() -> future.get(10, TimeUnit.SECONDS))
                        .isInstanceOf(ExecutionException.class)
                        .cause().isInstanceOfSatisfying(PutStatusException.class,
                                e -> assertThat(e.status()).isEqualTo(PutStatus.FLUSH_SLAVE_TIMEOUT));
                assertThat(Duration.ofNanos(System.nanoTime() - begin)).isGreaterThanOrEqualTo(Duration.ofMillis(250));
                assertThat(master.replicas()).singleElement()
                        .satisfies(state -> assertThat(state.ackedOffset()).isZero());

                silent.ack(end);
                await(() -> master.replicas().get(0).ackedOffset() == end, WAIT, "late ack to be recorded");
                assertThat(master.awaitReplicated(end, WAIT)).isCompleted();
            }
        }
    }

    @Test
    void failsAtOnceWithoutReplica() throws Exception {
        Path masterRoot = root.resolve("master");
        try (MessageStore masterStore = fixture.openStore(masterRoot);
             PushReplicationStrategy master = fixture.strategy(haConfig(), BrokerRole.SYNC_MASTER, masterRoot,
                     masterStore)) {
            master.start();
            long end = put(masterStore, message("T", 0, "alone"));
            master.appended(end);
            CompletableFuture<Void> future = master.awaitReplicated(end, Duration.ofSeconds(30));
            assertThat(future).isCompletedExceptionally();
            assertThatThrownBy(future::join).cause().isInstanceOfSatisfying(PutStatusException.class,
                    e -> assertThat(e.status()).isEqualTo(PutStatus.SLAVE_NOT_AVAILABLE));
            assertThat(master.replicas()).isEmpty();
        }
    }

    @Test
    void failsAtOnceWhenEveryReplicaIsTooFarBehind() throws Exception {
        Path masterRoot = root.resolve("master");
        try (MessageStore masterStore = fixture.openStore(masterRoot);
             PushReplicationStrategy master = fixture.strategy(
                     haConfig("haSlaveFallbehindMax", "4096", "haPushWindowBytes", "8192"),
                     BrokerRole.SYNC_MASTER, masterRoot, masterStore)) {
            master.start();
            try (RawReplica lagging = new RawReplica(master.listenAddress())) {
                lagging.hello(0);
                await(() -> master.replicas().size() == 1, WAIT, "raw replica to be streaming");
                long end = burst(masterStore, master, 40, 300, "far");
                assertThat(master.replicas()).singleElement()
                        .satisfies(state -> assertThat(state.inSync()).isFalse());
                CompletableFuture<Void> future = master.awaitReplicated(end, Duration.ofSeconds(30));
                assertThatThrownBy(future::join).cause().isInstanceOfSatisfying(PutStatusException.class,
                        e -> assertThat(e.status()).isEqualTo(PutStatus.SLAVE_NOT_AVAILABLE));
            }
        }
    }

    @Test
    void slaveRoleRefusesMasterCalls() throws Exception {
        Path replicaRoot = root.resolve("replica");
        try (MessageStore store = fixture.openStore(replicaRoot);
             PushReplicationStrategy master = fixture.strategy(haConfig(), BrokerRole.ASYNC_MASTER, replicaRoot,
                     store)) {
            PushReplicationStrategy replica = fixture.strategy(haConfig(), BrokerRole.SLAVE, replicaRoot, store);
            assertThat(replica.awaitReplicated(1, WAIT)).isCompletedExceptionally();
            assertThat(replica.replicas()).isEmpty();
            assertThatThrownBy(() -> master.followMaster("127.0.0.1:1")).isInstanceOf(IllegalStateException.class);
            replica.close();
            replica.close();
            assertThatThrownBy(() -> replica.followMaster("127.0.0.1:1")).isInstanceOf(IllegalStateException.class);
        }
    }

    private static String summary(long[] nanos) {
        long[] sorted = nanos.clone();
        Arrays.sort(sorted);
        double mean = Arrays.stream(nanos).average().orElse(0) / 1000.0;
        return String.format(java.util.Locale.ROOT, "mean %.1f us, p50 %.1f us, p99 %.1f us, max %.1f us", mean,
                sorted[sorted.length / 2] / 1000.0, sorted[(int) (sorted.length * 0.99)] / 1000.0,
                sorted[sorted.length - 1] / 1000.0);
    }
}
