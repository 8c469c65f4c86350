package org.modmq.broker.controller;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A master's right to acknowledge writes in controller mode. The controller leader never elects another
 * master until {@code controllerHeartBeatTimeoutMills} after the last heartbeat it received from this one
 * (and that long after it became leader); a heartbeat the leader answered therefore keeps this lease
 * valid until its send time plus the timeout minus a margin, measured on this process's monotonic clock.
 * Sends are answered only while the lease is valid, so a master that is cut off or paused acknowledges
 * nothing a new master may lack. The lease ends early when the connection to the leader closes.
 *
 * <p>Threading: thread-safe; {@link #renew} and {@link #revoke} from the heartbeat callbacks, the rest from
 * send threads.
 */
public final class WriteLease {

    private static final Logger LOG = LoggerFactory.getLogger(WriteLease.class);

    private final LongSupplier nanos;
    private final long leaseNanos;
    private final ScheduledExecutorService scheduler;
    private final List<CompletableFuture<Boolean>> waiting = new ArrayList<>();
    private volatile long validUntil = Long.MIN_VALUE;
    private volatile boolean held;

    /**
     * @param nanos monotonic clock in ns ({@code System::nanoTime}; tests pass a manual one)
     * @param leaseMillis how long after a heartbeat's send time its answer keeps the lease
     * @param scheduler for the bounded waits of {@link #awaitValid}
     */
    public WriteLease(LongSupplier nanos, long leaseMillis, ScheduledExecutorService scheduler) {
        this.nanos = Objects.requireNonNull(nanos, "nanos");
        this.leaseNanos = TimeUnit.MILLISECONDS.toNanos(leaseMillis);
        this.scheduler = Objects.requireNonNull(scheduler, "scheduler");
    }

    /** The monotonic time to stamp on a heartbeat before it is sent. */
    long now() {
        return nanos.getAsLong();
    }

    /** The leader answered a heartbeat sent at {@code sentAtNanos}. */
    void renew(long sentAtNanos) {
        List<CompletableFuture<Boolean>> released;
        synchronized (this) {
            long until = sentAtNanos + leaseNanos;
            if (until - validUntil > 0 || validUntil == Long.MIN_VALUE) {
                validUntil = until;
            }
            if (!held && valid()) {
                held = true;
                LOG.info("write lease held (renewed by the controller leader)");
            }
            released = valid() ? new ArrayList<>(waiting) : List.of();
            waiting.removeAll(released);
        }
        released.forEach(future -> future.complete(true));
    }

    /** The lease ends now (the connection to the leader closed, or this broker stopped being master). */
    void revoke(String why) {
        List<CompletableFuture<Boolean>> failed;
        synchronized (this) {
            validUntil = Long.MIN_VALUE;
            if (held) {
                held = false;
                LOG.warn("write lease lost: {}", why);
            }
            failed = new ArrayList<>(waiting);
            waiting.clear();
        }
        failed.forEach(future -> future.complete(false));
    }

    /** Whether acknowledgements may be given now. */
    public boolean valid() {
        long until = validUntil;
        return until != Long.MIN_VALUE && until - nanos.getAsLong() > 0;
    }

    /**
     * Completes with true at once while the lease is valid, else when it is renewed within
     * {@code maxWaitMillis}; false when it is revoked or the wait ends first.
     */
    public CompletableFuture<Boolean> awaitValid(long maxWaitMillis) {
        if (valid()) {
            return CompletableFuture.completedFuture(true);
        }
        CompletableFuture<Boolean> future = new CompletableFuture<>();
        synchronized (this) {
            if (valid()) {
                return CompletableFuture.completedFuture(true);
            }
            waiting.add(future);
        }
        var timer = scheduler.schedule(() -> {
            synchronized (this) {
                waiting.remove(future);
            }
            future.complete(false);
        }, maxWaitMillis, TimeUnit.MILLISECONDS);
        future.whenComplete((ok, error) -> timer.cancel(false));
        return future;
    }
}
