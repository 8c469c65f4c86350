package org.modmq.replication.tck;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.modmq.api.spi.replication.ReplicaLink;

/**
 * The master-to-replica half of the contract: replicas copy the log byte for byte (from empty and from
 * behind, classic and with epochs), the master's progress reports match the replicas' logs, and a
 * synchronous send's future completes only once a replica holds its bytes.
 */
@Timeout(120)
public abstract class CatchUpContract extends ReplicationContractFixture {

    /** How long a wait that must not succeed lasts (a future that must stay incomplete). */
    private static final long NEVER_MILLIS = 1_000;

    /** For subclasses; JUnit creates one instance per test method. */
    protected CatchUpContract() {
    }

    @ParameterizedTest(name = "epochs={0}")
    @ValueSource(booleans = {true, false})
    void anEmptyReplicaCopiesTheLogByteForByteWithWhatIsWrittenMeanwhile(boolean epochs) throws Exception {
        conformsTo(ContractCase.CATCH_UP_FROM_EMPTY);
        int epoch = epochs ? 1 : 0;
        ReplicationNode a = node("a", 1, epochs);
        ReplicationNode b = node("b", 2, epochs);
        a.becomeMaster(epoch);
        long before = writeMany(a, 300);
        assertThat(before).isGreaterThan(4L * SEGMENT);
        AtomicReference<Throwable> failed = new AtomicReference<>();
        Thread writer = new Thread(() -> {
            try {
                writeMany(a, 200);
            } catch (Throwable t) {
                failed.set(t);
            }
        }, "contract-writer");
        b.becomeReplica(epoch, a);
        writer.start();
        writer.join(WAIT.toMillis());
        assertThat(writer.isAlive()).as("the writer finished").isFalse();
        assertThat(failed.get()).as("the writer's failure").isNull();
        awaitCaughtUp(a, b);
        assertThat(b.log().maxOffset()).isGreaterThan(before);
    }

    @ParameterizedTest(name = "epochs={0}")
    @ValueSource(booleans = {true, false})
    void aReplicaBehindContinuesFromItsOwnEnd(boolean epochs) {
        conformsTo(ContractCase.CATCH_UP_FROM_BEHIND);
        int epoch = epochs ? 1 : 0;
        ReplicationNode a = node("a", 1, epochs);
        ReplicationNode b = node("b", 2, epochs);
        a.becomeMaster(epoch);
        b.becomeReplica(epoch, a);
        writeMany(a, 100);
        awaitCaughtUp(a, b);
        long had = b.log().maxOffset();
        int appendsBefore = b.log().appendOffsets().size();
        b.stop();
        writeMany(a, 150);
        b.start();
        awaitCaughtUp(a, b);
        assertThat(b.log().truncations()).as("nothing " + b.name() + " held is cut").allMatch(t -> t >= had);
        List<Long> later = b.log().appendOffsets().subList(appendsBefore, b.log().appendOffsets().size());
        assertThat(later).as("appends after the restart start at or after " + had).isNotEmpty()
                .allMatch(offset -> offset >= had);
    }

    @Test
    void theMastersProgressMatchesEachReplicasLog() {
        conformsTo(ContractCase.PROGRESS_MATCHES_REPLICAS);
        ReplicationNode a = node("a", 1, true);
        ReplicationNode b = node("b", 2, true);
        ReplicationNode c = node("c", 3, true);
        a.becomeMaster(1);
        b.becomeReplica(1, a);
        c.becomeReplica(1, a);
        long end = writeMany(a, 200);
        awaitCaughtUp(a, b);
        awaitCaughtUp(a, c);
        await("a to see both replicas at " + end, () -> a.progress().acks().size() == 2
                && a.progress().acks().values().stream().allMatch(offset -> offset == end));
        assertThat(a.progress().acks().keySet()).extracting(ReplicaLink::brokerId)
                .as("controller mode: each link names its replica's broker id").containsExactlyInAnyOrder(2L, 3L);

        c.becomeReplica(1, null);
        await("c's link to be reported gone", () -> a.progress().disconnects().stream()
                .anyMatch(link -> link.brokerId() == 3) && a.progress().acks().size() == 1);
        long more = writeMany(a, 50);
        awaitCaughtUp(a, b);
        await("b's acknowledgement of " + more, () -> a.progress().acks().values().stream()
                .allMatch(offset -> offset == more) && a.progress().acks().size() == 1);
        assertThat(c.log().maxOffset()).as("c follows nobody").isEqualTo(end);
    }

    @Test
    void aReplicatedFutureCompletesOnlyOnceAReplicaHoldsTheBytes() throws Exception {
        conformsTo(ContractCase.REPLICATED_ONLY_WHEN_HELD);
        ReplicationNode a = node("a", 1, true);
        a.becomeMaster(1);
        long alone = a.write(1_000);
        CompletableFuture<Long> unreplicated = a.progress().replicated(alone);
        assertThatThrownBy(() -> unreplicated.get(NEVER_MILLIS, TimeUnit.MILLISECONDS))
                .as("no replica is connected").isInstanceOf(TimeoutException.class);

        ReplicationNode b = node("b", 2, true);
        b.becomeReplica(1, a);
        assertThat(unreplicated.get(WAIT.toMillis(), TimeUnit.MILLISECONDS)).isGreaterThanOrEqualTo(alone);
        awaitCaughtUp(a, b);

        long held = b.log().maxOffset();
        b.log().holdAppends();
        try {
            long next = writeMany(a, 20);
            CompletableFuture<Long> waiting = a.progress().replicated(next);
            assertThatThrownBy(() -> waiting.get(NEVER_MILLIS, TimeUnit.MILLISECONDS))
                    .as("b has not stored the bytes yet").isInstanceOf(TimeoutException.class);
            assertThat(b.log().maxOffset()).isEqualTo(held);
            b.log().releaseAppends();
            assertThat(waiting.get(WAIT.toMillis(), TimeUnit.MILLISECONDS)).isGreaterThanOrEqualTo(next);
            awaitCaughtUp(a, b);
        } finally {
            b.log().releaseAppends();
        }

        b.becomeReplica(1, null);
        await("b's link to be reported gone", () -> a.progress().acks().isEmpty()
                && !a.progress().disconnects().isEmpty());
        long orphan = a.write(500);
        CompletableFuture<Long> abandoned = a.progress().replicated(orphan);
        assertThatThrownBy(() -> abandoned.get(NEVER_MILLIS, TimeUnit.MILLISECONDS))
                .as("the only replica left").isInstanceOf(TimeoutException.class);
    }
}
