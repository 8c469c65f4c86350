package org.modmq.ha.pull;

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
 * Futures waiting for a slave to acknowledge an offset. Completed by the thread that reads an
 * acknowledgement ({@link #acked}); timed out by a task per future on the shared scheduler. Futures are
 * completed outside the lock so dependants never run under it. Thread-safe.
 */
final class AckWaiters implements AutoCloseable {

    private final ScheduledExecutorService scheduler;
    private final ReentrantLock lock = new ReentrantLock();
    private final NavigableMap<Long, List<CompletableFuture<Void>>> waiting = new TreeMap<>();
    private long highestAck = -1;
    private boolean closed;

    AckWaiters(ScheduledExecutorService scheduler) {
        this.scheduler = Objects.requireNonNull(scheduler, "scheduler");
    }

    /**
     * A future completed once some slave acknowledged {@code offset} (bytes below it), or failed with
     * {@code FLUSH_SLAVE_TIMEOUT} after {@code timeout}.
     */
    CompletableFuture<Void> await(long offset, Duration timeout) {
        CompletableFuture<Void> future = new CompletableFuture<>();
        lock.lock();
        try {
            if (closed) {
                future.completeExceptionally(new PutStatusException(PutStatus.SLAVE_NOT_AVAILABLE,
                        "replication is closed"));
                return future;
            }
            if (highestAck >= offset) {
                future.complete(null);
                return future;
            }
            waiting.computeIfAbsent(offset, k -> new ArrayList<>(2)).add(future);
        } finally {
            lock.unlock();
        }
        ScheduledFuture<?> timer = scheduler.schedule(() -> expire(offset, future, timeout),
                timeout.toNanos(), TimeUnit.NANOSECONDS);
        future.whenComplete((ignored, failure) -> timer.cancel(false));
        return future;
    }

    /** A slave acknowledged {@code offset}: completes every waiter at or below it. */
    void acked(long offset) {
        List<CompletableFuture<Void>> done = new ArrayList<>();
        lock.lock();
        try {
            if (offset <= highestAck) {
                return;
            }
            highestAck = offset;
            NavigableMap<Long, List<CompletableFuture<Void>>> covered = waiting.headMap(offset, true);
            for (Map.Entry<Long, List<CompletableFuture<Void>>> entry : covered.entrySet()) {
                done.addAll(entry.getValue());
            }
            covered.clear();
        } finally {
            lock.unlock();
        }
        done.forEach(future -> future.complete(null));
    }

    /** The highest offset any slave ever acknowledged, -1 before the first. */
    long highestAck() {
        lock.lock();
        try {
            return highestAck;
        } finally {
            lock.unlock();
        }
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

    private void expire(long offset, CompletableFuture<Void> future, Duration timeout) {
        lock.lock();
        try {
            List<CompletableFuture<Void>> list = waiting.get(offset);
            if (list != null) {
                list.remove(future);
                if (list.isEmpty()) {
                    waiting.remove(offset);
                }
            }
        } finally {
            lock.unlock();
        }
        future.completeExceptionally(new PutStatusException(PutStatus.FLUSH_SLAVE_TIMEOUT,
                "no slave acknowledged offset " + offset + " within " + timeout.toMillis() + " ms"));
    }

    /** Fails every waiter with {@code SLAVE_NOT_AVAILABLE}. Idempotent. */
    @Override
    public void close() {
        List<CompletableFuture<Void>> failed = new ArrayList<>();
        lock.lock();
        try {
            closed = true;
            waiting.values().forEach(failed::addAll);
            waiting.clear();
        } finally {
            lock.unlock();
        }
        failed.forEach(future -> future.completeExceptionally(
                new PutStatusException(PutStatus.SLAVE_NOT_AVAILABLE, "replication is closed")));
    }
}
