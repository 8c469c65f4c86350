package org.modmq.namesrv.body;

/**
 * Version stamp of a broker's topic table: {@code {"counter":0,"stateVersion":0,"timestamp":...}}.
 * Two versions are equal when all three fields are equal.
 *
 * @param counter      grows by one on each change of the broker's table
 * @param stateVersion the master epoch in controller mode, otherwise 0
 * @param timestamp    when the broker last changed its table, in epoch milliseconds
 */
public record DataVersion(long counter, long stateVersion, long timestamp) {

    /** The version the name server assumes for a registration without a body. */
    public static final DataVersion ZERO = new DataVersion(0, 0, 0);
}
