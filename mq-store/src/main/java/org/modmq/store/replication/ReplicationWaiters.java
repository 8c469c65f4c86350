package org.modmq.store.replication;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Objects;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import org.modmq.api.message.PutStatus;
import org.modmq.api.message.PutStatusException;

/**
 * Sends waiting for their bytes to be replicated, keyed by the CommitLog offset they need covered.
 * {@link #release(long)} completes every waiter at or below an offset; a task per waiter on the shared
 * scheduler fails it with {@code FLUSH_SLAVE_TIMEOUT}. Futures complete outside the lock, on the
 * calling thread. Thread-safe.
 */
final class ReplicationWaiters {

    private final ScheduledExecutorService scheduler;
    private final ReentrantLock lock = new ReentrantLock();
    private final NavigableMap<Long, List<CompletableFuture<Void>>> waiting = new TreeMap<>();

    ReplicationWaiters(ScheduledExecutorService scheduler) {
        this.scheduler = Objects.requireNonNull(scheduler, "scheduler");
    }

    /**
     * A future completed by a later {@link #release} of at least {@code offset}, or failed with
     * {@code FLUSH_SLAVE_TIMEOUT} after {@code timeout}.
     */
    CompletableFuture<Void> await(long offset, Duration timeout) {
        CompletableFuture<Void> future = new CompletableFuture<>();
        lock.lock();
        try {
            waiting.computeIfAbsent(offset, k -> new ArrayList<>(2)).add(future);
        } finally {
            lock.unlock();
        }
        ScheduledFuture<?> timer = scheduler.schedule(() -> expire(offset, future, timeout),
                timeout.toNanos(), TimeUnit.NANOSECONDS);
        future.whenComplete((ignored, failure) -> timer.cancel(false));
        return future;
    }

    /** The smallest offset waited for, or {@link Long#MAX_VALUE} when nothing waits. */
    long lowest() {
        lock.lock();
        try {
            return waiting.isEmpty() ? Long.MAX_VALUE : waiting.firstKey();
        } finally {
            lock.unlock();
        }
    }

    /** Completes every waiter whose offset is at or below {@code replicated}. */
    void release(long replicated) {
        List<CompletableFuture<Void>> done = new ArrayList<>();
        lock.lock();
        try {
            NavigableMap<Long, List<CompletableFuture<Void>>> covered = waiting.headMap(replicated, true);
            for (Map.Entry<Long, List<CompletableFuture<Void>>> entry : covered.entrySet()) {
                done.addAll(entry.getValue());
            }
            covered.clear();
        } finally {
            lock.unlock();
        }
        done.forEach(future -> future.complete(null));
    }

    /** Waiters not yet completed. */
    int pending() {
        lock.lock();
        try {
            return waiting.values().stream().mapToInt(List::size).sum();
        } finally {
            lock.unlock();
        }
    }

    /** Fails every waiter with {@code status}. */
    void failAll(PutStatus status, String detail) {
        List<CompletableFuture<Void>> failed = new ArrayList<>();
        lock.lock();
        try {
            waiting.values().forEach(failed::addAll);
            waiting.clear();
        } finally {
            lock.unlock();
        }
        failed.forEach(future -> future.completeExceptionally(new PutStatusException(status, detail)));
    }

    private void expire(long offset, CompletableFuture<Void> future, Duration timeout) {
        lock.lock();
        try {
            List<CompletableFuture<Void>> list = waiting.get(offset);
            if (list == null || !list.remove(future)) {
                return;
            }
            if (list.isEmpty()) {
                waiting.remove(offset);
            }
        } finally {
            lock.unlock();
        }
        future.completeExceptionally(new PutStatusException(PutStatus.FLUSH_SLAVE_TIMEOUT,
                "no replica acknowledged offset " + offset + " within " + timeout.toMillis() + " ms"));
    }
}
