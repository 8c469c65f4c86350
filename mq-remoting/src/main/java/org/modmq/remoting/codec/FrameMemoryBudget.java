package org.modmq.remoting.codec;

import java.util.concurrent.atomic.AtomicLong;

/**
 * The bytes a process holds in partly received frames, across all of a server's connections, and the
 * bound on them. A connection that would take the total past the bound is closed (by its
 * {@link RemotingFrameDecoder}) instead of growing its buffer, so many clients that each announce a
 * large frame and send only part of it cannot exhaust direct memory and starve everyone else.
 * Thread-safe.
 */
public final class FrameMemoryBudget {

    private final long limit;
    private final AtomicLong used = new AtomicLong();

    /** @param limit the most bytes of partly received frames held at once, at least 1 */
    public FrameMemoryBudget(long limit) {
        if (limit < 1) {
            throw new IllegalArgumentException("limit must be >= 1: " + limit);
        }
        this.limit = limit;
    }

    /** A budget no connection reaches (for clients, whose peers are servers they chose). */
    public static FrameMemoryBudget unbounded() {
        return new FrameMemoryBudget(Long.MAX_VALUE);
    }

    /** @return whether {@code bytes} more fit; when they do they are counted as held */
    boolean tryAcquire(long bytes) {
        while (true) {
            long now = used.get();
            long next = now + bytes;
            if (next > limit || next < 0) {
                return false;
            }
            if (used.compareAndSet(now, next)) {
                return true;
            }
        }
    }

    void release(long bytes) {
        used.addAndGet(-bytes);
    }

    /** @return the bytes held in partly received frames now */
    public long used() {
        return used.get();
    }

    /** @return the bound */
    public long limit() {
        return limit;
    }
}
