package org.modmq.controller.liveness;

import java.util.concurrent.TimeUnit;

/**
 * A monotonic millisecond clock: only differences between its readings mean anything. Controller code
 * reads time only through one, so that tests can step it.
 */
@FunctionalInterface
public interface Ticker {

    /** The JVM's monotonic clock ({@link System#nanoTime()}). */
    Ticker SYSTEM = () -> TimeUnit.NANOSECONDS.toMillis(System.nanoTime());

    /** @return the current reading in milliseconds */
    long millis();
}
