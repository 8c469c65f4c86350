package org.modmq.store.flush;

import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import org.modmq.api.message.PutStatus;
import org.modmq.api.message.PutStatusException;
import org.modmq.api.spi.flush.FlushPolicy;
import org.modmq.api.spi.flush.FlushTarget;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code SYNC_FLUSH}: group commit. An agent thread takes every pending request, forces the target once
 * and completes every request the force covers. A request not covered within {@code syncFlushTimeout}
 * ms (measured on the injected clock, checked by a sweep on the shared scheduler so that a force that
 * hangs still times out) fails with {@code FLUSH_DISK_TIMEOUT}. Thread-safe.
 */
public final class GroupCommitFlushPolicy implements FlushPolicy {

    private static final Logger LOG = LoggerFactory.getLogger(GroupCommitFlushPolicy.class);

    private record Request(long endOffset, long deadline, CompletableFuture<Long> future) {
    }

    private final FlushTarget target;
    private final Clock clock;
    private final long timeoutMillis;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition work = lock.newCondition();
    private final List<Request> waiting = new ArrayList<>();
    private final Thread agent;
    private final ScheduledFuture<?> sweeper;
    private boolean newRequests;
    private boolean closed;

    public GroupCommitFlushPolicy(FlushTarget target, Clock clock, ScheduledExecutorService scheduler,
                                  long timeoutMillis) {
        this.target = Objects.requireNonNull(target, "target");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.timeoutMillis = timeoutMillis;
        long sweep = Math.max(10, Math.min(1000, timeoutMillis / 4));
        this.sweeper = scheduler.scheduleWithFixedDelay(this::expire, sweep, sweep, TimeUnit.MILLISECONDS);
        this.agent = new Thread(this::run, "modmq-group-commit");
        agent.setDaemon(true);
        agent.start();
    }

    @Override
    public String name() {
        return "SYNC_FLUSH";
    }

    @Override
    public boolean synchronous() {
        return true;
    }

    @Override
    public CompletableFuture<Long> appended(long endOffset) {
        long durable = target.durableOffset();
        if (endOffset <= durable) {
            return CompletableFuture.completedFuture(durable);
        }
        CompletableFuture<Long> future = new CompletableFuture<>();
        lock.lock();
        try {
            if (closed) {
                return CompletableFuture.failedFuture(
                        new PutStatusException(PutStatus.SERVICE_NOT_AVAILABLE, "flush policy is closed"));
            }
            waiting.add(new Request(endOffset, clock.millis() + timeoutMillis, future));
            newRequests = true;
            work.signal();
        } finally {
            lock.unlock();
        }
        return future;
    }

    private void run() {
        while (true) {
            lock.lock();
            try {
                while (!newRequests && !closed) {
                    work.awaitUninterruptibly();
                }
                if (closed) {
                    return;
                }
                newRequests = false;
            } finally {
                lock.unlock();
            }
            long durable;
            try {
                durable = target.flush();
            } catch (RuntimeException e) {
                LOG.error("force failed; the sends waiting for it are answered FLUSH_DISK_TIMEOUT", e);
                failWaiting("the force failed: " + e.getMessage());
                continue;
            }
            completeCovered(durable);
        }
    }

    private void completeCovered(long durable) {
        List<Request> done = new ArrayList<>();
        lock.lock();
        try {
            waiting.removeIf(request -> request.endOffset() <= durable && done.add(request));
        } finally {
            lock.unlock();
        }
        done.forEach(request -> request.future().complete(durable));
    }

    /**
     * A failed force: every waiting send is told at once, never as success. Their bytes are written but
     * not known to be durable, which is what FLUSH_DISK_TIMEOUT says (as a late force would).
     */
    private void failWaiting(String reason) {
        List<Request> failed;
        lock.lock();
        try {
            failed = new ArrayList<>(waiting);
            waiting.clear();
        } finally {
            lock.unlock();
        }
        failed.forEach(request -> request.future().completeExceptionally(
                new PutStatusException(PutStatus.FLUSH_DISK_TIMEOUT, reason)));
    }

    /** Fails every request whose deadline has passed. Called by the sweep; tests may call it. */
    void expire() {
        long now = clock.millis();
        List<Request> late = new ArrayList<>();
        lock.lock();
        try {
            waiting.removeIf(request -> request.deadline() <= now && late.add(request));
        } finally {
            lock.unlock();
        }
        late.forEach(request -> request.future().completeExceptionally(new PutStatusException(
                PutStatus.FLUSH_DISK_TIMEOUT, "not forced within " + timeoutMillis + " ms")));
    }

    @Override
    public void close() {
        List<Request> pending;
        lock.lock();
        try {
            if (closed) {
                return;
            }
            closed = true;
            work.signalAll();
        } finally {
            lock.unlock();
        }
        sweeper.cancel(false);
        try {
            agent.join(timeoutMillis + 1000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        try {
            completeCovered(target.flush());
        } catch (RuntimeException e) {
            LOG.error("final force failed", e);
        }
        lock.lock();
        try {
            pending = new ArrayList<>(waiting);
            waiting.clear();
        } finally {
            lock.unlock();
        }
        pending.forEach(request -> request.future().completeExceptionally(
                new PutStatusException(PutStatus.SERVICE_NOT_AVAILABLE, "flush policy closed")));
    }
}
