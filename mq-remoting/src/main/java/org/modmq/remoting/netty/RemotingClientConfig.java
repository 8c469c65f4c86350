package org.modmq.remoting.netty;

import java.time.Duration;
import java.util.Objects;
import org.modmq.remoting.codec.RemotingFrameLayout;

/**
 * Settings of a {@link RemotingClient}.
 *
 * @param ioThreads number of I/O event-loop threads, at least 1
 * @param maxFrameLength largest accepted frame length {@code L} in bytes (default 16 MiB)
 * @param idleSeconds a connection without traffic for this long is closed; 0 disables (default 120)
 * @param connectTimeout how long a connect may take (default 3 s)
 */
public record RemotingClientConfig(int ioThreads, int maxFrameLength, int idleSeconds, Duration connectTimeout) {

    /** Validates every value. */
    public RemotingClientConfig {
        Objects.requireNonNull(connectTimeout, "connectTimeout");
        if (ioThreads < 1) {
            throw new IllegalArgumentException("ioThreads must be >= 1: " + ioThreads);
        }
        if (maxFrameLength < 8) {
            throw new IllegalArgumentException("maxFrameLength must be >= 8: " + maxFrameLength);
        }
        if (idleSeconds < 0) {
            throw new IllegalArgumentException("idleSeconds must be >= 0: " + idleSeconds);
        }
        if (connectTimeout.isNegative() || connectTimeout.isZero()) {
            throw new IllegalArgumentException("connectTimeout must be positive: " + connectTimeout);
        }
    }

    /** @return defaults: 1 I/O thread, 16 MiB frames, 120 s idle, 3 s connect timeout */
    public static RemotingClientConfig defaults() {
        return new RemotingClientConfig(1, RemotingFrameLayout.DEFAULT_MAX_FRAME_LENGTH, 120, Duration.ofSeconds(3));
    }
}
