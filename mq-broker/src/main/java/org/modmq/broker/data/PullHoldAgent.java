package org.modmq.broker.data;

import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BiFunction;
import java.util.function.ToLongBiFunction;
import org.modmq.remoting.netty.RemotingChannel;
import org.modmq.remoting.protocol.RemotingCommand;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Long polling (docs/protocol.md section 8.6): pulls that found nothing are held per {@code topic@queueId} and
 * re-executed once, on a wake-up thread, as soon as a message for their queue is dispatched
 * ({@link #onArrival}) or when their hold time is up (a sweep every 100 ms on the broker scheduler).
 * A re-executed pull never suspends again. At most {@code maxHeld} pulls are held; beyond that
 * {@link #hold} refuses and the caller answers at once. Requests whose connection closed are dropped
 * without an answer. Thread-safe; {@link #close()} is idempotent and drops every held pull.
 */
final class PullHoldAgent implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(PullHoldAgent.class);
    private static final long SWEEP_MILLIS = 100;

    /** A held pull's queue; a record so that a wake-up for each dispatch builds no string. */
    private record QueueKey(String topic, int queueId) {
    }

    /** One held pull. */
    private record Held(RemotingChannel channel, RemotingCommand request, long offset, long deadlineMillis,
                        CompletableFuture<RemotingCommand> answer) {
    }

    private final Clock clock;
    private final int maxHeld;
    private final ToLongBiFunction<String, Integer> maxOffset;
    private final BiFunction<RemotingChannel, RemotingCommand, CompletableFuture<RemotingCommand>> rerun;
    private final Map<QueueKey, Queue<Held>> held = new ConcurrentHashMap<>();
    private final AtomicInteger count = new AtomicInteger();
    private final ExecutorService wakeups;
    private final ScheduledFuture<?> sweep;
    private volatile boolean closed;

    /**
     * @param maxOffset the queue's current max offset
     * @param rerun executes a pull again without suspending
     */
    PullHoldAgent(Clock clock, ScheduledExecutorService scheduler, int maxHeld,
                  ToLongBiFunction<String, Integer> maxOffset,
                  BiFunction<RemotingChannel, RemotingCommand, CompletableFuture<RemotingCommand>> rerun) {
        this.clock = Objects.requireNonNull(clock, "clock");
        this.maxHeld = maxHeld;
        this.maxOffset = Objects.requireNonNull(maxOffset, "maxOffset");
        this.rerun = Objects.requireNonNull(rerun, "rerun");
        this.wakeups = Executors.newSingleThreadExecutor(r -> {
            Thread thread = new Thread(r, "PullWakeupThread");
            thread.setDaemon(true);
            return thread;
        });
        this.sweep = scheduler.scheduleWithFixedDelay(this::sweep, SWEEP_MILLIS, SWEEP_MILLIS, TimeUnit.MILLISECONDS);
    }

    /**
     * Holds a pull of {@code topic}/{@code queueId} waiting beyond {@code offset} for up to {@code holdMillis}.
     *
     * @return the future of the eventual answer, or null when the agent is full or closed (answer now)
     */
    CompletableFuture<RemotingCommand> hold(RemotingChannel channel, RemotingCommand request, String topic,
                                            int queueId, long offset, long holdMillis) {
        if (closed || count.incrementAndGet() > maxHeld) {
            count.decrementAndGet();
            return null;
        }
        Held entry = new Held(channel, request, offset, clock.millis() + holdMillis, new CompletableFuture<>());
        held.computeIfAbsent(key(topic, queueId), k -> new ConcurrentLinkedQueue<>()).add(entry);
        // A message dispatched between the empty read and the registration above would be missed otherwise.
        if (maxOffset.applyAsLong(topic, queueId) > offset) {
            onArrival(topic, queueId, Long.MAX_VALUE);
        }
        return entry.answer();
    }

    /** Wakes the pulls of that queue whose offset is now below {@code newMaxOffset}. Called by the store. */
    void onArrival(String topic, int queueId, long newMaxOffset) {
        Queue<Held> queue = held.get(key(topic, queueId));
        if (queue == null) {
            return;
        }
        for (Held entry : queue) {
            if (entry.offset() < newMaxOffset && queue.remove(entry)) {
                wake(entry);
            }
        }
    }

    /** The number of pulls held now. */
    int heldCount() {
        return count.get();
    }

    private void sweep() {
        long now = clock.millis();
        for (Queue<Held> queue : held.values()) {
            for (Held entry : queue) {
                if (!entry.channel().isActive()) {
                    if (queue.remove(entry)) {
                        count.decrementAndGet();
                        entry.answer().complete(null);
                    }
                } else if (now >= entry.deadlineMillis() && queue.remove(entry)) {
                    wake(entry);
                }
            }
        }
    }

    private void wake(Held entry) {
        count.decrementAndGet();
        try {
            wakeups.execute(() -> {
                if (!entry.channel().isActive()) {
                    entry.answer().complete(null);
                    return;
                }
                try {
                    rerun.apply(entry.channel(), entry.request()).whenComplete((response, failure) -> {
                        if (failure != null) {
                            entry.answer().completeExceptionally(failure);
                        } else {
                            entry.answer().complete(response);
                        }
                    });
                } catch (RuntimeException e) {
                    entry.answer().completeExceptionally(e);
                }
            });
        } catch (RejectedExecutionException e) {
            LOG.debug("pull wake-up refused while closing: {}", e.getMessage());
            entry.answer().complete(null);
        }
    }

    private static QueueKey key(String topic, int queueId) {
        return new QueueKey(topic, queueId);
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        sweep.cancel(false);
        List<Held> dropped = new ArrayList<>();
        held.values().forEach(queue -> {
            Held entry;
            while ((entry = queue.poll()) != null) {
                dropped.add(entry);
            }
        });
        dropped.forEach(entry -> entry.answer().complete(null));
        wakeups.shutdown();
        try {
            if (!wakeups.awaitTermination(2, TimeUnit.SECONDS)) {
                wakeups.shutdownNow();
            }
        } catch (InterruptedException e) {
            wakeups.shutdownNow();
            Thread.currentThread().interrupt();
        }
    }
}
