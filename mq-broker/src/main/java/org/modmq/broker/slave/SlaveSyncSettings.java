package org.modmq.broker.slave;

import java.time.Duration;
import java.util.Objects;

/**
 * Timing of the slave's metadata sync. Immutable.
 *
 * @param initialDelay wait before the first sync after start
 * @param period wait between the end of one sync and the start of the next
 * @param requestTimeout bound on each of the four requests to the master
 * @param offsetPeriod wait between consumer-offset-only syncs in between (equal to {@code period}: none)
 */
public record SlaveSyncSettings(Duration initialDelay, Duration period, Duration requestTimeout,
                                Duration offsetPeriod) {

    public SlaveSyncSettings {
        Objects.requireNonNull(initialDelay, "initialDelay");
        Objects.requireNonNull(period, "period");
        Objects.requireNonNull(requestTimeout, "requestTimeout");
        Objects.requireNonNull(offsetPeriod, "offsetPeriod");
        if (initialDelay.isNegative() || period.isNegative() || period.isZero() || requestTimeout.isNegative()
                || requestTimeout.isZero()) {
            throw new IllegalArgumentException("sync period and request timeout must be positive, the initial "
                    + "delay not negative: " + initialDelay + ", " + period + ", " + requestTimeout);
        }
    }

    /** The schedule without separate offset syncs. */
    public SlaveSyncSettings(Duration initialDelay, Duration period, Duration requestTimeout) {
        this(initialDelay, period, requestTimeout, period);
    }

    /** First sync 3 s after start, then every 10 s (RocketMQ 4.9's schedule), 3 s per request. */
    public static SlaveSyncSettings defaults() {
        return new SlaveSyncSettings(Duration.ofSeconds(3), Duration.ofSeconds(10), Duration.ofSeconds(3));
    }

    /**
     * Controller mode, where a replica may become master at any moment: everything every 10 s as above,
     * and consumer offsets every second, so consumers resume on a new master close to where they were.
     */
    public static SlaveSyncSettings controllerMode() {
        return new SlaveSyncSettings(Duration.ofSeconds(1), Duration.ofSeconds(10), Duration.ofSeconds(3),
                Duration.ofSeconds(1));
    }
}
