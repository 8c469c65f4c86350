package org.modmq.testkit;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A clock that moves only when a test moves it: inject it where code takes a {@link Clock}, then
 * {@link #advance(Duration)} or {@link #set(Instant)} it. Its zone is UTC; {@link #withZone(ZoneId)}
 * returns the same clock, so a zoned view still moves with it.
 *
 * <p>Thread-safe: the code under test may read it on its own threads while the test thread moves it;
 * every read sees the latest move.
 */
public final class ManualClock extends Clock {

    private final AtomicReference<Instant> now;

    /** A clock standing at {@code startMillis} milliseconds after the epoch. */
    public ManualClock(long startMillis) {
        this(Instant.ofEpochMilli(startMillis));
    }

    /** A clock standing at {@code start}. */
    public ManualClock(Instant start) {
        this.now = new AtomicReference<>(Objects.requireNonNull(start, "start"));
    }

    /** Moves the clock by {@code by}, which may be negative. */
    public void advance(Duration by) {
        Objects.requireNonNull(by, "by");
        now.updateAndGet(instant -> instant.plus(by));
    }

    /** Puts the clock at {@code instant}, earlier or later than now. */
    public void set(Instant instant) {
        now.set(Objects.requireNonNull(instant, "instant"));
    }

    @Override
    public Instant instant() {
        return now.get();
    }

    @Override
    public long millis() {
        return now.get().toEpochMilli();
    }

    @Override
    public ZoneId getZone() {
        return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
        return this;
    }

    @Override
    public String toString() {
        return "ManualClock[" + now.get() + "]";
    }
}
