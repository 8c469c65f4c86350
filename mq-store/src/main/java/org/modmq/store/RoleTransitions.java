package org.modmq.store;

import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import org.modmq.api.spi.replication.EpochEntry;
import org.modmq.api.spi.replication.ReplicaRole;
import org.modmq.api.spi.replication.ReplicationStrategy;
import org.modmq.api.spi.replication.RoleState;
import org.modmq.store.log.LogMode;
import org.modmq.store.replication.ReplicationTracker;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The store's one role/epoch state and its transitions. Each transition closes the log to the old
 * role's writes first (so none lands after it), prepares the store for the new role, then opens the log
 * to the new role's writes and tells the replication strategy and the listeners.
 *
 * <p>Becoming master: a partial record left by the last replicated frame is cut off, the epoch (when
 * above the last recorded one) is recorded as starting at the log's end while everything is dispatched (so
 * queue offsets continue from the replicated ones), then local writes open, the caller's writes-open hook
 * runs (a broker registers as master there), and only then are the strategy and the listeners told.
 * Becoming replica: local
 * writes close and every send still waiting for replication fails.
 *
 * <p>Fencing: an epoch below the last one recorded in the epoch history (or below the current role's)
 * is refused with {@link StaleEpochException}; epoch 0 means classic replication and is never fenced.
 * Threading: transitions are serialized (synchronized); {@link #state()} is a volatile read.
 */
final class RoleTransitions {

    private static final Logger LOG = LoggerFactory.getLogger(RoleTransitions.class);

    private final StoreParts parts;
    private final ReplicationTracker tracker;
    private final List<Consumer<RoleState>> listeners = new CopyOnWriteArrayList<>();
    private ReplicationStrategy strategy;
    private volatile RoleState state;

    RoleTransitions(StoreParts parts, ReplicationTracker tracker, RoleState initial) {
        this.parts = Objects.requireNonNull(parts, "parts");
        this.tracker = Objects.requireNonNull(tracker, "tracker");
        this.state = Objects.requireNonNull(initial, "initial");
    }

    RoleState state() {
        return state;
    }

    boolean master() {
        return state.master();
    }

    void addListener(Consumer<RoleState> listener) {
        listeners.add(Objects.requireNonNull(listener, "listener"));
    }

    /** Applies the initial role to a started strategy (the log is already in that role's mode). */
    synchronized void start(ReplicationStrategy started, long brokerId) {
        this.strategy = started;
        RoleState initial = state;
        if (initial.master()) {
            tracker.becomeMaster(brokerId);
            parts.log().mode(LogMode.LOCAL);
            started.becomeMaster(initial.epoch());
        } else {
            tracker.becomeReplica(brokerId);
            tracker.restoreConfirm(parts.log().maxOffset());
            parts.log().mode(LogMode.REPLICATED);
            started.becomeReplica(initial.epoch(), initial.masterHaAddress(), brokerId);
        }
        LOG.info("store starts as {}", initial);
    }

    synchronized void becomeMaster(int epoch, long brokerId, Runnable writesOpen) {
        RoleState now = state;
        fence(epoch, now);
        if (now.master() && now.epoch() == epoch) {
            // Nothing to change in the store; the caller's own take-over (registration) still runs.
            writesOpen.run();
            return;
        }
        long began = System.nanoTime();
        parts.log().mode(LogMode.CLOSED);
        long closed = System.nanoTime();
        long whole = parts.log().confirmedOffset();
        if (whole < parts.log().maxOffset()) {
            LOG.info("dropping a partial record at {} (log end {}) before taking writes", whole,
                    parts.log().maxOffset());
            parts.truncate(whole);
        }
        long cut = System.nanoTime();
        // The epoch's force and the dispatch of the replicated tail are independent: the force runs on a
        // thread of its own meanwhile. Writes open only once both are done.
        CompletableFuture<Void> recording = epoch > parts.epochs().lastEpoch()
                ? EpochRecorder.record(parts.epochs(), new EpochEntry(epoch, parts.log().maxOffset()))
                : CompletableFuture.completedFuture(null);
        tracker.becomeMaster(brokerId);
        parts.dispatch().doWork();
        long dispatched = System.nanoTime();
        EpochRecorder.await(recording);
        long recorded = System.nanoTime();
        parts.log().mode(LogMode.LOCAL);
        RoleState next = new RoleState(ReplicaRole.MASTER, epoch, null);
        changed(now, next);
        // The caller registers as master from here: the strategy and the listeners need not delay that.
        writesOpen.run();
        long open = System.nanoTime();
        strategy.becomeMaster(epoch);
        notifyListeners(next);
        LOG.info("master of epoch {} after {} ms (writes closed {} ms, tail cut {} ms, dispatched {} ms, epoch "
                + "recorded {} ms after that, writes-open hook {} ms, strategy and listeners {} ms)", epoch,
                millis(began, System.nanoTime()), millis(began, closed), millis(closed, cut), millis(cut, dispatched),
                millis(dispatched, recorded), millis(recorded, open), millis(open, System.nanoTime()));
    }

    private static double millis(long from, long to) {
        return Math.round((to - from) / 10_000.0) / 100.0;
    }

    synchronized void becomeReplica(int epoch, String masterHaAddress, long brokerId) {
        RoleState now = state;
        fence(epoch, now);
        if (!now.master() && now.epoch() == epoch && Objects.equals(now.masterHaAddress(), masterHaAddress)) {
            return;
        }
        parts.log().mode(LogMode.REPLICATED);
        if (now.master()) {
            long confirmed = tracker.confirmOffset();
            tracker.becomeReplica(brokerId);
            tracker.restoreConfirm(confirmed);
        }
        RoleState next = new RoleState(ReplicaRole.REPLICA, epoch, masterHaAddress);
        changed(now, next);
        strategy.becomeReplica(epoch, masterHaAddress, brokerId);
        notifyListeners(next);
    }

    private void fence(int epoch, RoleState now) {
        if (epoch == 0) {
            return;
        }
        int last = Math.max(now.epoch(), parts.epochs().lastEpoch());
        if (epoch < last) {
            throw new StaleEpochException("epoch " + epoch + " is older than this store's epoch " + last);
        }
    }

    private void changed(RoleState from, RoleState to) {
        state = to;
        LOG.info("store role {} -> {}", from, to);
    }

    private void notifyListeners(RoleState next) {
        for (Consumer<RoleState> listener : listeners) {
            try {
                listener.accept(next);
            } catch (RuntimeException e) {
                LOG.error("role listener failed", e);
            }
        }
    }
}
