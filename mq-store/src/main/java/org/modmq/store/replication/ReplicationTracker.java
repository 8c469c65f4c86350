package org.modmq.store.replication;

import java.time.Clock;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executor;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.LongConsumer;
import java.util.function.LongSupplier;
import org.modmq.api.message.PutStatus;
import org.modmq.api.message.PutStatusException;
import org.modmq.api.spi.replication.ReplicaLink;
import org.modmq.api.spi.replication.ReplicaProgress;
import org.modmq.api.spi.replication.ReplicaState;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The store's account of replication: what each replica acknowledged (reported by the strategy through
 * {@link ReplicaProgress}), when a synchronous send counts as replicated under the
 * {@link ReplicationPolicy}, the SyncStateSet of controller mode (confirmed by the controller, plus a
 * proposal in flight: while one is, both count, so a send never waits for fewer members than either
 * names) and the confirm offset.
 *
 * <p>Threads: acknowledgements arrive on strategy threads and only update counters; completing sends
 * and the dispatch a rising confirm offset allows run on the {@code completions} executor, so a network
 * thread never runs a send's continuation. Thread-safe.
 */
public final class ReplicationTracker implements ReplicaProgress {

    private static final Logger LOG = LoggerFactory.getLogger(ReplicationTracker.class);

    private final ReplicationPolicy policy;
    private final LongSupplier logEnd;
    private final LongSupplier epochStart;
    private final Clock clock;
    private final Executor completions;
    private final Runnable confirmAdvanced;
    private final ReplicationWaiters waiters;
    private final CatchUpSamples samples = new CatchUpSamples(2048, 25);
    private final Map<ReplicaLink, Replica> replicas = new ConcurrentHashMap<>();
    private final List<LongConsumer> lostListeners = new CopyOnWriteArrayList<>();
    private final List<LongConsumer> caughtUpListeners = new CopyOnWriteArrayList<>();
    private final AtomicBoolean drainQueued = new AtomicBoolean();
    private volatile boolean master;
    private volatile long selfId;
    private volatile Set<Long> syncStateSet = Set.of();
    private volatile Set<Long> proposed;
    private volatile long replicaConfirm;

    /**
     * @param logEnd the CommitLog's end (bytes)
     * @param epochStart where the current epoch starts (0 without epochs)
     * @param confirmAdvanced run on {@code completions} when the confirm offset may have risen (dispatch)
     */
    public ReplicationTracker(ReplicationPolicy policy, LongSupplier logEnd, LongSupplier epochStart, Clock clock,
                              ScheduledExecutorService scheduler, Executor completions, Runnable confirmAdvanced) {
        this.policy = Objects.requireNonNull(policy, "policy");
        this.logEnd = Objects.requireNonNull(logEnd, "logEnd");
        this.epochStart = Objects.requireNonNull(epochStart, "epochStart");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.completions = Objects.requireNonNull(completions, "completions");
        this.confirmAdvanced = Objects.requireNonNull(confirmAdvanced, "confirmAdvanced");
        this.waiters = new ReplicationWaiters(scheduler);
    }

    public ReplicationPolicy policy() {
        return policy;
    }

    /**
     * Controller mode: {@code lost} hears the broker id of a SyncStateSet member that disconnected,
     * {@code caughtUp} the id of a replica outside the set that caught up. Called on strategy threads;
     * must not block.
     */
    public void addListeners(LongConsumer lost, LongConsumer caughtUp) {
        lostListeners.add(Objects.requireNonNull(lost, "lost"));
        caughtUpListeners.add(Objects.requireNonNull(caughtUp, "caughtUp"));
    }

    /** The log grew to {@code end} (writer threads): dates later acknowledgements. */
    public void appended(long end) {
        samples.record(clock.millis(), end);
    }

    // ---- role ----

    /** This store is master from now on as broker {@code brokerId}; earlier replica state is dropped. */
    public void becomeMaster(long brokerId) {
        replicas.clear();
        samples.clear();
        selfId = brokerId;
        syncStateSet = Set.of(brokerId);
        proposed = null;
        master = true;
    }

    /** This store is a replica from now on: every waiting send fails with SERVICE_NOT_AVAILABLE. */
    public void becomeReplica(long brokerId) {
        master = false;
        selfId = brokerId;
        replicas.clear();
        proposed = null;
        syncStateSet = Set.of();
        waiters.failAll(PutStatus.SERVICE_NOT_AVAILABLE, "this broker is no longer the master");
    }

    /** Fails every waiting send (the store closes). */
    public void close() {
        master = false;
        waiters.failAll(PutStatus.SERVICE_NOT_AVAILABLE, "the store is closed");
    }

    // ---- progress from the strategy ----

    @Override
    public void acknowledged(ReplicaLink link, long offset) {
        if (!master || link == null) {
            return;
        }
        Replica replica = replicas.computeIfAbsent(link, Replica::new);
        boolean first = !replica.connected;
        replica.connected = true;
        if (offset > replica.acked) {
            replica.acked = offset;
        }
        // Dated on every report, not only when it grows: an idle replica that holds everything is caught up.
        long held = replica.acked;
        long caughtUp = held >= logEnd.getAsLong() ? clock.millis() : samples.caughtUpAt(held);
        if (caughtUp > replica.caughtUpMillis) {
            replica.caughtUpMillis = caughtUp;
        }
        if (first) {
            LOG.info("replica {} (broker id {}) reports offset {}", link.address(), link.brokerId(), offset);
            // A reconnected replica reports what it really holds: its earlier links no longer count.
            replicas.entrySet().removeIf(e -> e.getValue() != replica && !e.getValue().connected
                    && e.getKey().brokerId() == link.brokerId() && link.brokerId() != ReplicaLink.UNKNOWN_ID);
        }
        if (policy.controllerMode()) {
            signalCaughtUp(replica, offset);
            scheduleDrain();
        } else if (releasable()) {
            scheduleDrain();
        }
    }

    /**
     * Whether a waiting send is covered now. An acknowledgement wakes the completions thread only then:
     * waking it for every report (with an ASYNC_MASTER nothing ever waits) cost a thread hand-off per
     * report. Written after {@code acked} and read under the waiters' lock, which {@link #awaitReplicated}
     * takes before its own re-check, so one of the two always sees the other.
     */
    private boolean releasable() {
        long lowest = waiters.lowest();
        return lowest != Long.MAX_VALUE && lowest <= replicatedOffset();
    }

    private void signalCaughtUp(Replica replica, long offset) {
        long id = replica.link.brokerId();
        if (id == ReplicaLink.UNKNOWN_ID || effectiveSet().contains(id) || replica.expansionSignalled) {
            return;
        }
        if (offset >= confirmOffset() && offset >= epochStart.getAsLong()) {
            replica.expansionSignalled = true;
            caughtUpListeners.forEach(listener -> listener.accept(id));
        }
    }

    @Override
    public void disconnected(ReplicaLink link) {
        Replica replica = link == null ? null : replicas.get(link);
        if (replica == null || !replica.connected) {
            return;
        }
        replica.connected = false;
        replica.expansionSignalled = false;
        LOG.info("replica {} (broker id {}) disconnected at offset {}", link.address(), link.brokerId(),
                replica.acked);
        long id = link.brokerId();
        if (id == ReplicaLink.UNKNOWN_ID) {
            replicas.remove(link);
        }
        if (master && policy.controllerMode() && id != selfId && effectiveSet().contains(id)) {
            lostListeners.forEach(listener -> listener.accept(id));
        }
        scheduleDrain();
    }

    // ---- sends ----

    /**
     * Controller mode: refuses a send before it is stored when the SyncStateSet is smaller than
     * {@code minInSyncReplicas}; empty when it may go ahead.
     */
    public PutStatus admission() {
        if (policy.controllerMode() && effectiveSet().size() < policy.minInSyncReplicas()) {
            return PutStatus.IN_SYNC_REPLICAS_NOT_ENOUGH;
        }
        return null;
    }

    /**
     * Completes when bytes below {@code end} count as replicated under the policy; fails with a
     * {@link PutStatusException}: SLAVE_NOT_AVAILABLE at once (classic: no replica, or the best one too
     * far behind), FLUSH_SLAVE_TIMEOUT after the policy's timeout, SERVICE_NOT_AVAILABLE when this store
     * stops being master first.
     */
    public CompletableFuture<Void> awaitReplicated(long end) {
        if (!master) {
            return CompletableFuture.failedFuture(new PutStatusException(PutStatus.SERVICE_NOT_AVAILABLE,
                    "this broker is not the master"));
        }
        if (policy.mode() == ReplicationPolicy.Mode.NONE) {
            return CompletableFuture.completedFuture(null);
        }
        if (policy.mode() == ReplicationPolicy.Mode.ANY_REPLICA) {
            long best = bestConnectedAck();
            if (best < 0) {
                return CompletableFuture.failedFuture(new PutStatusException(PutStatus.SLAVE_NOT_AVAILABLE,
                        "no slave is connected"));
            }
            long behind = logEnd.getAsLong() - best;
            if (behind > policy.fallBehindMax()) {
                return CompletableFuture.failedFuture(new PutStatusException(PutStatus.SLAVE_NOT_AVAILABLE,
                        "the best slave is " + behind + " bytes behind (haSlaveFallbehindMax "
                                + policy.fallBehindMax() + ")"));
            }
        }
        if (replicatedOffset() >= end) {
            return CompletableFuture.completedFuture(null);
        }
        CompletableFuture<Void> waiting = waiters.await(end, policy.timeout());
        // An acknowledgement may have landed between the check and the registration (see releasable()).
        if (policy.controllerMode() || replicatedOffset() >= end) {
            scheduleDrain();
        }
        return waiting;
    }

    /** The offset below which bytes count as replicated now (Long.MAX_VALUE when nothing is needed). */
    long replicatedOffset() {
        switch (policy.mode()) {
            case NONE:
                return Long.MAX_VALUE;
            case ANY_REPLICA:
                return bestConnectedAck();
            default:
                return syncStateSetOffset();
        }
    }

    private long bestConnectedAck() {
        long best = -1;
        for (Replica replica : replicas.values()) {
            if (replica.connected) {
                best = Math.max(best, replica.acked);
            }
        }
        return best;
    }

    private long syncStateSetOffset() {
        if (policy.allAckInSyncStateSet()) {
            // A plain loop: this runs for every dispatch and acknowledgement on a master, and a new master's
            // first call is on the failover's critical path, where a stream pipeline's classes and lambdas
            // would be loaded and linked first.
            long lowest = Long.MAX_VALUE;
            for (long member : effectiveSet()) {
                if (member != selfId) {
                    lowest = Math.min(lowest, ackOf(member));
                }
            }
            return lowest;
        }
        List<Long> acks = new ArrayList<>();
        for (long member : effectiveSet()) {
            if (member != selfId) {
                acks.add(ackOf(member));
            }
        }
        int needed = policy.inSyncReplicas() - 1;
        if (needed <= 0) {
            return Long.MAX_VALUE;
        }
        if (acks.size() < needed) {
            return -1;
        }
        acks.sort((a, b) -> Long.compare(b, a));
        return acks.get(needed - 1);
    }

    /** A member's last acknowledgement; a disconnected one still holds what it acknowledged. */
    private long ackOf(long brokerId) {
        long best = 0;
        for (Replica replica : replicas.values()) {
            if (replica.link.brokerId() == brokerId) {
                best = Math.max(best, replica.acked);
            }
        }
        return best;
    }

    private void scheduleDrain() {
        if (drainQueued.compareAndSet(false, true)) {
            try {
                completions.execute(this::drain);
            } catch (RuntimeException e) {
                drainQueued.set(false);
                LOG.debug("replication completions not accepted: {}", e.getMessage());
            }
        }
    }

    private void drain() {
        drainQueued.set(false);
        if (policy.controllerMode()) {
            try {
                confirmAdvanced.run();
            } catch (RuntimeException e) {
                LOG.error("dispatch after a confirm offset change failed", e);
            }
        }
        if (master) {
            waiters.release(replicatedOffset());
        }
    }

    // ---- confirm offset ----

    /**
     * Bytes below this offset are confirmed: on a controller-mode master, held by every SyncStateSet
     * member when {@code allAckInSyncStateSet} (else the log's end); on a controller-mode replica, what the
     * master last said; in classic mode the log's end.
     */
    public long confirmOffset() {
        long end = logEnd.getAsLong();
        if (!policy.controllerMode()) {
            return end;
        }
        if (!master) {
            return Math.min(replicaConfirm, end);
        }
        if (!policy.allAckInSyncStateSet()) {
            return end;
        }
        return Math.min(end, syncStateSetOffset());
    }

    /** Replica: the master's confirm offset; the caller dispatches what it allows. */
    public void replicaConfirmed(long offset) {
        if (offset > replicaConfirm) {
            replicaConfirm = offset;
        }
    }

    /** The log was cut back to {@code offset}: a replica's confirm offset cannot stay above it. */
    public void truncated(long offset) {
        replicaConfirm = Math.min(replicaConfirm, offset);
    }

    /** Recovery: a replica starts with everything it recovered counted as confirmed. */
    public void restoreConfirm(long offset) {
        replicaConfirm = offset;
    }

    // ---- SyncStateSet ----

    /** The SyncStateSet the controller confirmed (master; empty on a replica). */
    public Set<Long> syncStateSet() {
        return syncStateSet;
    }

    /** The confirmed set united with a proposal in flight: what sends and the confirm offset count. */
    public Set<Long> effectiveSet() {
        Set<Long> pending = proposed;
        if (pending == null) {
            return syncStateSet;
        }
        Set<Long> union = new HashSet<>(syncStateSet);
        union.addAll(pending);
        return union;
    }

    /** A change was sent to the controller: until it answers, both sets count. */
    public void proposeSyncStateSet(Set<Long> members) {
        proposed = Set.copyOf(members);
        scheduleDrain();
    }

    /** The controller's SyncStateSet (master: it includes this broker's id). Ends any proposal. */
    public void applySyncStateSet(Set<Long> members) {
        Set<Long> next = new HashSet<>(members);
        if (master) {
            next.add(selfId);
        }
        syncStateSet = Set.copyOf(next);
        proposed = null;
        replicas.values().forEach(replica -> replica.expansionSignalled = false);
        LOG.info("SyncStateSet is now {}", syncStateSet);
        scheduleDrain();
    }

    /**
     * Members (other than this master) that should leave the SyncStateSet now: disconnected, or not caught
     * up for {@code haMaxTimeSlaveNotCatchup}. Empty when none.
     */
    public Set<Long> laggingMembers() {
        Set<Long> lagging = new HashSet<>();
        long now = clock.millis();
        for (long member : syncStateSet) {
            if (member == selfId) {
                continue;
            }
            Replica replica = replicaById(member);
            if (replica == null || !replica.connected
                    || now - replica.caughtUpMillis > policy.maxTimeNotCaughtUp().toMillis()) {
                lagging.add(member);
            }
        }
        return lagging;
    }

    /**
     * Connected replicas that are outside the SyncStateSet and caught up enough to join it (at least the
     * confirm offset and the current epoch's start).
     */
    public Set<Long> joinableReplicas() {
        Set<Long> joinable = new HashSet<>();
        Set<Long> members = effectiveSet();
        long confirm = confirmOffset();
        long start = epochStart.getAsLong();
        for (Replica replica : replicas.values()) {
            long id = replica.link.brokerId();
            if (replica.connected && id != ReplicaLink.UNKNOWN_ID && !members.contains(id)
                    && replica.acked >= confirm && replica.acked >= start) {
                joinable.add(id);
            }
        }
        return joinable;
    }

    private Replica replicaById(long brokerId) {
        Replica best = null;
        for (Replica replica : replicas.values()) {
            if (replica.link.brokerId() == brokerId && (best == null || replica.connected && !best.connected)) {
                best = replica;
            }
        }
        return best;
    }

    /** Connected replicas as the master sees them; empty on a replica. */
    public List<ReplicaState> replicas() {
        List<ReplicaState> out = new ArrayList<>();
        if (!master) {
            return out;
        }
        long end = logEnd.getAsLong();
        Set<Long> members = effectiveSet();
        for (Replica replica : replicas.values()) {
            if (!replica.connected) {
                continue;
            }
            boolean inSync = policy.controllerMode() ? members.contains(replica.link.brokerId())
                    : end - replica.acked <= policy.fallBehindMax();
            out.add(new ReplicaState(replica.link.address(), replica.link.brokerId(), replica.acked,
                    replica.caughtUpMillis, inSync));
        }
        return out;
    }

    /** Sends waiting for replication now. */
    public int pendingSends() {
        return waiters.pending();
    }

    /** One replica link's counters; fields written by strategy threads. */
    private static final class Replica {
        final ReplicaLink link;
        volatile long acked = -1;
        volatile long caughtUpMillis;
        volatile boolean connected;
        volatile boolean expansionSignalled;

        Replica(ReplicaLink link) {
            this.link = link;
        }
    }
}
