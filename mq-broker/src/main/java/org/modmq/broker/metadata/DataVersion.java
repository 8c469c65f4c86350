package org.modmq.broker.metadata;

import java.time.Clock;

/**
 * RocketMQ's {@code DataVersion}: JSON {@code {"counter":0,"stateVersion":0,"timestamp":...}}. Two
 * versions are equal when all three fields are. Immutable.
 *
 * @param counter incremented on every change
 * @param stateVersion master epoch in controller mode, else 0
 * @param timestamp wall-clock ms of the change
 */
public record DataVersion(long counter, long stateVersion, long timestamp) {

    public static DataVersion initial(Clock clock) {
        return new DataVersion(0, 0, clock.millis());
    }

    /** The version after one more change. */
    public DataVersion next(Clock clock) {
        return new DataVersion(counter + 1, stateVersion, clock.millis());
    }
}
