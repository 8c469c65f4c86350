package org.modmq.replication.tck;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.function.LongSupplier;
import org.modmq.api.spi.replication.ReplicaLink;
import org.modmq.api.spi.replication.ReplicaProgress;

/**
 * The master side's {@link ReplicaProgress} as the kit sees it: each connected link's highest
 * acknowledgement, the links that disconnected, and {@link #replicated(long)} futures that complete once
 * some connected replica acknowledged an offset, the way the store's tracker completes a synchronous send.
 *
 * <p>Every acknowledgement is checked against {@code held}, the most any replica's log holds at that
 * moment: a higher one claims bytes no replica has, so a synchronous send would complete early. Such
 * claims are kept as {@link #violations()}; the kit fails the test on any. Thread-safe.
 */
public final class RecordingProgress implements ReplicaProgress {

    /** A waiting {@link #replicated} future and the offset it waits for. */
    private record Waiter(long offset, CompletableFuture<Long> future) {
    }

    private final LongSupplier held;
    private final Map<ReplicaLink, Long> acks = new HashMap<>();
    private final List<ReplicaLink> disconnects = new ArrayList<>();
    private final List<String> violations = new ArrayList<>();
    private final List<Waiter> waiters = new ArrayList<>();

    /** @param held the highest {@code maxOffset()} among the replicas' logs right now */
    public RecordingProgress(LongSupplier held) {
        this.held = held;
    }

    @Override
    public void acknowledged(ReplicaLink replica, long offset) {
        long most = held.getAsLong();
        List<CompletableFuture<Long>> done = new ArrayList<>();
        synchronized (this) {
            if (offset > most) {
                violations.add(replica + " acknowledged " + offset + " while no replica's log held more than " + most);
            }
            acks.merge(replica, offset, Math::max);
            for (Iterator<Waiter> it = waiters.iterator(); it.hasNext(); ) {
                Waiter waiter = it.next();
                if (offset >= waiter.offset()) {
                    done.add(waiter.future());
                    it.remove();
                }
            }
        }
        done.forEach(future -> future.complete(offset));
    }

    @Override
    public synchronized void disconnected(ReplicaLink replica) {
        acks.remove(replica);
        disconnects.add(replica);
    }

    /**
     * Completes with the acknowledged offset once a connected replica holds every byte below {@code offset};
     * at once when one already does. Never completes otherwise: the caller bounds the wait.
     */
    public synchronized CompletableFuture<Long> replicated(long offset) {
        CompletableFuture<Long> future = new CompletableFuture<>();
        long best = acks.values().stream().mapToLong(Long::longValue).max().orElse(Long.MIN_VALUE);
        if (best >= offset) {
            future.complete(best);
        } else {
            waiters.add(new Waiter(offset, future));
        }
        return future;
    }

    /** The connected links and their highest acknowledgements. */
    public synchronized Map<ReplicaLink, Long> acks() {
        return Map.copyOf(acks);
    }

    /** The links reported disconnected, in order. */
    public synchronized List<ReplicaLink> disconnects() {
        return List.copyOf(disconnects);
    }

    /** Acknowledgements of bytes no replica held. */
    public synchronized List<String> violations() {
        return List.copyOf(violations);
    }
}
