package org.modmq.remoting.protocol.body;

import java.time.Clock;

/**
 * Version stamp of a broker's topic table (and of other broker metadata tables); JSON shape of
 * RocketMQ's {@code DataVersion}: {@code {"counter":0,"stateVersion":0,"timestamp":...}}. Two versions
 * are equal when all three fields are. Immutable and thread-safe.
 *
 * @param counter      grows by one on every change of the table
 * @param stateVersion the master epoch in controller mode, otherwise 0
 * @param timestamp    when the table last changed, in epoch milliseconds
 */
public record DataVersion(long counter, long stateVersion, long timestamp) {

    /** The version the name server assumes for a registration without a body. */
    public static final DataVersion ZERO = new DataVersion(0, 0, 0);

    /** The version of a table that has never changed, stamped now. */
    public static DataVersion initial(Clock clock) {
        return new DataVersion(0, 0, clock.millis());
    }

    /** The version after one more change. */
    public DataVersion next(Clock clock) {
        return new DataVersion(counter + 1, stateVersion, clock.millis());
    }
}
