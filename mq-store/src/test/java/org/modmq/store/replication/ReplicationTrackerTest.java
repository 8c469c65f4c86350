package org.modmq.store.replication;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.modmq.api.config.ConfigValues;
import org.modmq.api.message.PutStatus;
import org.modmq.api.message.PutStatusException;
import org.modmq.api.spi.replication.ReplicaLink;
import org.modmq.testkit.ManualClock;

@Timeout(30)
class ReplicationTrackerTest {

    private static final ReplicaLink R1 = new ReplicaLink("127.0.0.1:7001", 1);
    private static final ReplicaLink R2 = new ReplicaLink("127.0.0.1:7002", 2);

    private final ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor();
    private final ManualClock clock = new ManualClock(Instant.parse("2024-01-01T10:00:00Z"));
    private final AtomicLong end = new AtomicLong(1000);
    private final AtomicInteger dispatches = new AtomicInteger();

    @AfterEach
    void stop() {
        scheduler.shutdownNow();
    }

    private final AtomicInteger handOffs = new AtomicInteger();

    private ReplicationTracker tracker(String... keyValues) {
        Map<String, String> map = new java.util.HashMap<>(Map.of("syncFlushTimeout", "200"));
        for (int i = 0; i < keyValues.length; i += 2) {
            map.put(keyValues[i], keyValues[i + 1]);
        }
        return new ReplicationTracker(ReplicationPolicy.from(ConfigValues.of(map)), end::get, () -> 0, clock,
                scheduler, task -> {
                    handOffs.incrementAndGet();
                    task.run();
                }, dispatches::incrementAndGet);
    }

    @Test
    void anAcknowledgementWakesTheCompletionsOnlyWhenItReleasesASend() {
        ReplicationTracker async = tracker("brokerRole", "ASYNC_MASTER");
        async.becomeMaster(0);
        async.acknowledged(R1, 500);
        async.acknowledged(R1, 1000);
        assertThat(handOffs.get()).as("nothing ever waits on an ASYNC_MASTER").isZero();

        ReplicationTracker sync = tracker("brokerRole", "SYNC_MASTER");
        sync.becomeMaster(0);
        sync.acknowledged(R1, 900);
        assertThat(handOffs.get()).as("no waiter").isZero();
        CompletableFuture<Void> waiting = sync.awaitReplicated(1000);
        assertThat(handOffs.get()).as("registered, not covered yet").isZero();
        sync.acknowledged(R1, 950);
        assertThat(waiting).isNotDone();
        assertThat(handOffs.get()).as("an acknowledgement short of the waiter").isZero();
        sync.acknowledged(R1, 1000);
        assertThat(waiting).isCompleted();
        assertThat(handOffs.get()).isEqualTo(1);
    }

    private static PutStatus failure(CompletableFuture<Void> future) throws Exception {
        try {
            future.get(5, TimeUnit.SECONDS);
            return PutStatus.PUT_OK;
        } catch (ExecutionException e) {
            return ((PutStatusException) e.getCause()).status();
        }
    }

    @Test
    void asyncMasterNeverWaits() throws Exception {
        ReplicationTracker tracker = tracker("brokerRole", "ASYNC_MASTER");
        tracker.becomeMaster(0);
        assertThat(tracker.awaitReplicated(1000)).isDone();
        assertThat(failure(tracker.awaitReplicated(1000))).isEqualTo(PutStatus.PUT_OK);
    }

    @Test
    void classicSyncMasterWaitsForAnyConnectedReplicaWithinTheFallBehindLimit() throws Exception {
        ReplicationTracker tracker = tracker("brokerRole", "SYNC_MASTER", "haSlaveFallbehindMax", "500");
        tracker.becomeMaster(0);
        assertThat(failure(tracker.awaitReplicated(1000))).isEqualTo(PutStatus.SLAVE_NOT_AVAILABLE);
        ReplicaLink classic = new ReplicaLink("127.0.0.1:7003", ReplicaLink.UNKNOWN_ID);
        tracker.acknowledged(classic, 100);
        assertThat(failure(tracker.awaitReplicated(1000))).isEqualTo(PutStatus.SLAVE_NOT_AVAILABLE);
        tracker.acknowledged(classic, 900);
        CompletableFuture<Void> waiting = tracker.awaitReplicated(1000);
        assertThat(waiting).isNotDone();
        tracker.acknowledged(classic, 1000);
        assertThat(failure(waiting)).isEqualTo(PutStatus.PUT_OK);
        assertThat(failure(tracker.awaitReplicated(2000))).isEqualTo(PutStatus.FLUSH_SLAVE_TIMEOUT);
        tracker.disconnected(classic);
        assertThat(tracker.replicas()).isEmpty();
        assertThat(failure(tracker.awaitReplicated(1000))).isEqualTo(PutStatus.SLAVE_NOT_AVAILABLE);
    }

    @Test
    void allAckWaitsForEveryMemberAndCountsAProposalTooUntilTheControllerAnswers() throws Exception {
        ReplicationTracker tracker = tracker("enableControllerMode", "true", "allAckInSyncStateSet", "true");
        List<Long> lost = new ArrayList<>();
        List<Long> caughtUp = new ArrayList<>();
        tracker.addListeners(lost::add, caughtUp::add);
        tracker.becomeMaster(0);
        assertThat(tracker.effectiveSet()).containsExactly(0L);
        assertThat(failure(tracker.awaitReplicated(1000))).isEqualTo(PutStatus.PUT_OK);
        tracker.applySyncStateSet(Set.of(0L, 1L, 2L));
        CompletableFuture<Void> waiting = tracker.awaitReplicated(1000);
        tracker.acknowledged(R1, 1000);
        assertThat(waiting).isNotDone();
        assertThat(tracker.confirmOffset()).isZero();
        tracker.acknowledged(R2, 1000);
        assertThat(failure(waiting)).isEqualTo(PutStatus.PUT_OK);
        assertThat(tracker.confirmOffset()).isEqualTo(1000);
        assertThat(dispatches.get()).isPositive();

        end.set(2000);
        tracker.disconnected(R2);
        assertThat(lost).containsExactly(2L);
        tracker.proposeSyncStateSet(Set.of(0L, 1L));
        CompletableFuture<Void> during = tracker.awaitReplicated(2000);
        tracker.acknowledged(R1, 2000);
        assertThat(during).as("the proposal and the confirmed set both count").isNotDone();
        tracker.applySyncStateSet(Set.of(0L, 1L));
        assertThat(failure(during)).isEqualTo(PutStatus.PUT_OK);

        ReplicaLink back = new ReplicaLink("127.0.0.1:7012", 2);
        tracker.acknowledged(back, 2000);
        assertThat(caughtUp).containsExactly(2L);
        assertThat(tracker.joinableReplicas()).containsExactly(2L);
    }

    @Test
    void withoutAllAckTheMasterAloneSufficesUnlessInSyncReplicasAsksForMore() throws Exception {
        ReplicationTracker alone = tracker("enableControllerMode", "true");
        alone.becomeMaster(0);
        alone.applySyncStateSet(Set.of(0L, 1L));
        assertThat(failure(alone.awaitReplicated(1000))).isEqualTo(PutStatus.PUT_OK);
        assertThat(alone.confirmOffset()).isEqualTo(1000);

        ReplicationTracker two = tracker("enableControllerMode", "true", "inSyncReplicas", "2");
        two.becomeMaster(0);
        two.applySyncStateSet(Set.of(0L, 1L, 2L));
        CompletableFuture<Void> waiting = two.awaitReplicated(1000);
        two.acknowledged(R2, 1000);
        assertThat(failure(waiting)).isEqualTo(PutStatus.PUT_OK);
    }

    @Test
    void aMemberThatStopsCatchingUpBecomesLagging() {
        ReplicationTracker tracker = tracker("enableControllerMode", "true", "haMaxTimeSlaveNotCatchup", "15000");
        tracker.becomeMaster(0);
        tracker.applySyncStateSet(Set.of(0L, 1L, 2L));
        tracker.acknowledged(R1, 1000);
        assertThat(tracker.laggingMembers()).containsExactly(2L);
        tracker.appended(1000);
        end.set(5000);
        clock.advance(Duration.ofSeconds(10));
        tracker.appended(5000);
        clock.advance(Duration.ofSeconds(10));
        assertThat(tracker.laggingMembers()).containsExactlyInAnyOrder(1L, 2L);
        tracker.acknowledged(R1, 5000);
        assertThat(tracker.laggingMembers()).containsExactly(2L);
    }

    @Test
    void anIdleReplicaHoldingTheWholeEmptyLogIsCaughtUp() {
        end.set(0);
        ReplicationTracker tracker = tracker("enableControllerMode", "true", "haMaxTimeSlaveNotCatchup", "15000");
        tracker.becomeMaster(1);
        tracker.applySyncStateSet(Set.of(1L, 2L));
        clock.advance(Duration.ofSeconds(60));
        tracker.acknowledged(R2, 0);
        assertThat(tracker.laggingMembers()).isEmpty();
        clock.advance(Duration.ofSeconds(10));
        tracker.acknowledged(R2, 0);
        clock.advance(Duration.ofSeconds(10));
        assertThat(tracker.laggingMembers()).as("reported again 10 s ago while holding everything").isEmpty();
    }

    @Test
    void becomingReplicaFailsWaitingSendsAndRefusesNewOnes() throws Exception {
        ReplicationTracker tracker = tracker("enableControllerMode", "true", "allAckInSyncStateSet", "true",
                "syncFlushTimeout", "5000");
        tracker.becomeMaster(0);
        tracker.applySyncStateSet(Set.of(0L, 1L));
        CompletableFuture<Void> waiting = tracker.awaitReplicated(1000);
        tracker.becomeReplica(0);
        assertThat(failure(waiting)).isEqualTo(PutStatus.SERVICE_NOT_AVAILABLE);
        assertThat(failure(tracker.awaitReplicated(1000))).isEqualTo(PutStatus.SERVICE_NOT_AVAILABLE);
        tracker.replicaConfirmed(700);
        assertThat(tracker.confirmOffset()).isEqualTo(700);
        tracker.truncated(500);
        assertThat(tracker.confirmOffset()).isEqualTo(500);
    }

    @Test
    void minInSyncReplicasAdmission() {
        ReplicationTracker tracker = tracker("enableControllerMode", "true", "minInSyncReplicas", "2");
        tracker.becomeMaster(0);
        assertThat(tracker.admission()).isEqualTo(PutStatus.IN_SYNC_REPLICAS_NOT_ENOUGH);
        tracker.applySyncStateSet(Set.of(0L, 1L));
        assertThat(tracker.admission()).isNull();
    }
}
