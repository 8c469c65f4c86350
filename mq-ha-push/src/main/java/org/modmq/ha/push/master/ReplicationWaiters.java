package org.modmq.ha.push.master;

import java.time.Duration;
import java.util.PriorityQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import org.modmq.api.message.PutStatus;
import org.modmq.api.message.PutStatusException;

/**
 * Futures of {@code awaitReplicated} calls, ordered by offset. An acknowledgement completes every
 * waiter at or below it on the acknowledging thread; a timeout task on the scheduler fails one waiter
 * with {@code FLUSH_SLAVE_TIMEOUT}.
 *
 * <p>Threads: any thread may register; acknowledgements come from event loops. A short lock guards
 * the queue; futures are completed outside it.
 */
final class ReplicationWaiters {

    private final PriorityQueue<Waiter> queue = new PriorityQueue<>();
    private final ScheduledExecutorService scheduler;
    private long sequence;

    ReplicationWaiters(ScheduledExecutorService scheduler) {
        this.scheduler = scheduler;
    }

    /**
     * A future for {@code offset}. After registering it consults {@code bestAck} (the highest offset an
     * in-sync replica acknowledged) so that an acknowledgement racing with the registration is not missed.
     */
    CompletableFuture<Void> register(long offset, Duration timeout, LongSupplier bestAck) {
        Waiter waiter;
        synchronized (this) {
            waiter = new Waiter(offset, sequence++);
            queue.add(waiter);
        }
        if (bestAck.getAsLong() >= offset) {
            remove(waiter);
            waiter.future.complete(null);
            return waiter.future;
        }
        ScheduledFuture<?> timer = scheduler.schedule(() -> expire(waiter, timeout),
                Math.max(0, timeout.toNanos()), TimeUnit.NANOSECONDS);
        waiter.future.whenComplete((ok, failure) -> timer.cancel(false));
        return waiter.future;
    }

    /** Completes every waiter at or below {@code ackedOffset}. */
    void acknowledged(long ackedOffset) {
        while (true) {
            Waiter done;
            synchronized (this) {
                Waiter head = queue.peek();
                if (head == null || head.offset > ackedOffset) {
                    return;
                }
                done = queue.poll();
            }
            done.future.complete(null);
        }
    }

    /** Fails every waiter with {@code status}. */
    void failAll(PutStatus status, String detail) {
        while (true) {
            Waiter waiter;
            synchronized (this) {
                waiter = queue.poll();
            }
            if (waiter == null) {
                return;
            }
            waiter.future.completeExceptionally(new PutStatusException(status, detail));
        }
    }

    private void expire(Waiter waiter, Duration timeout) {
        remove(waiter);
        waiter.future.completeExceptionally(new PutStatusException(PutStatus.FLUSH_SLAVE_TIMEOUT,
                "no in-sync replica acknowledged offset " + waiter.offset + " within " + timeout.toMillis() + " ms"));
    }

    private synchronized void remove(Waiter waiter) {
        queue.remove(waiter);
    }

    private static final class Waiter implements Comparable<Waiter> {
        final long offset;
        final long sequence;
        final CompletableFuture<Void> future = new CompletableFuture<>();

        Waiter(long offset, long sequence) {
            this.offset = offset;
            this.sequence = sequence;
        }

        @Override
        public int compareTo(Waiter other) {
            int byOffset = Long.compare(offset, other.offset);
            return byOffset != 0 ? byOffset : Long.compare(sequence, other.sequence);
        }
    }
}
