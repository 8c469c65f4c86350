package org.modmq.store.flush;

import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import org.modmq.api.spi.flush.FlushPolicy;
import org.modmq.api.spi.flush.FlushTarget;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code ASYNC_FLUSH}: futures complete at once; an agent thread forces whatever is not durable every
 * {@code intervalMillis} and, when {@code leastBytes > 0}, as soon as that many bytes are written but not
 * durable. Thread-safe.
 */
public final class PeriodicFlushPolicy implements FlushPolicy {

    private static final Logger LOG = LoggerFactory.getLogger(PeriodicFlushPolicy.class);

    private final FlushTarget target;
    private final long intervalMillis;
    private final long leastBytes;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition wake = lock.newCondition();
    private final Thread agent;
    private boolean urgent;
    private boolean closed;

    public PeriodicFlushPolicy(FlushTarget target, long intervalMillis, long leastBytes) {
        this.target = Objects.requireNonNull(target, "target");
        this.intervalMillis = Math.max(1, intervalMillis);
        this.leastBytes = leastBytes;
        this.agent = new Thread(this::run, "modmq-periodic-flush");
        agent.setDaemon(true);
        agent.start();
    }

    /** Unforced bytes that start a force at once; 0 when only the interval does (tests). */
    long wakeBytes() {
        return leastBytes;
    }

    @Override
    public String name() {
        return "ASYNC_FLUSH";
    }

    @Override
    public boolean synchronous() {
        return false;
    }

    @Override
    public CompletableFuture<Long> appended(long endOffset) {
        if (leastBytes > 0 && endOffset - target.durableOffset() >= leastBytes) {
            lock.lock();
            try {
                urgent = true;
                wake.signal();
            } finally {
                lock.unlock();
            }
        }
        return CompletableFuture.completedFuture(target.durableOffset());
    }

    private void run() {
        while (true) {
            lock.lock();
            try {
                long nanos = TimeUnit.MILLISECONDS.toNanos(intervalMillis);
                while (!urgent && !closed && nanos > 0) {
                    nanos = wake.awaitNanos(nanos);
                }
                if (closed) {
                    return;
                }
                urgent = false;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            } finally {
                lock.unlock();
            }
            if (target.writtenOffset() > target.durableOffset()) {
                try {
                    target.flush();
                } catch (RuntimeException e) {
                    LOG.error("periodic force failed", e);
                }
            }
        }
    }

    @Override
    public void close() {
        lock.lock();
        try {
            if (closed) {
                return;
            }
            closed = true;
            wake.signalAll();
        } finally {
            lock.unlock();
        }
        try {
            agent.join(10_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        try {
            target.flush();
        } catch (RuntimeException e) {
            LOG.error("final force failed", e);
        }
    }
}
