package org.modmq.remoting.netty;

import java.time.Duration;
import java.util.Objects;
import org.modmq.remoting.codec.RemotingFrameLayout;

/**
 * Settings of a {@link RemotingServer}.
 *
 * @param host the address to bind, e.g. {@code 127.0.0.1} or {@code 0.0.0.0}
 * @param port the port to bind; 0 picks an ephemeral port (see {@link RemotingServer#port()})
 * @param ioThreads number of I/O (worker) event-loop threads, at least 1
 * @param maxFrameLength largest accepted frame length {@code L} in bytes (default 16 MiB)
 * @param idleSeconds a connection without traffic in either direction for this long is closed;
 *     0 disables (default 120)
 * @param shutdownGrace how long {@link RemotingServer#close()} waits for in-flight processors
 */
public record RemotingServerConfig(String host, int port, int ioThreads, int maxFrameLength, int idleSeconds,
        Duration shutdownGrace) {

    /** Validates every value. */
    public RemotingServerConfig {
        Objects.requireNonNull(host, "host");
        Objects.requireNonNull(shutdownGrace, "shutdownGrace");
        if (port < 0 || port > 65535) {
            throw new IllegalArgumentException("port must be 0..65535: " + port);
        }
        if (ioThreads < 1) {
            throw new IllegalArgumentException("ioThreads must be >= 1: " + ioThreads);
        }
        if (maxFrameLength < 8) {
            throw new IllegalArgumentException("maxFrameLength must be >= 8: " + maxFrameLength);
        }
        if (idleSeconds < 0) {
            throw new IllegalArgumentException("idleSeconds must be >= 0: " + idleSeconds);
        }
        if (shutdownGrace.isNegative()) {
            throw new IllegalArgumentException("shutdownGrace must not be negative: " + shutdownGrace);
        }
    }

    /**
     * Defaults: 3 I/O threads, 16 MiB frames, 120 s idle, 5 s shutdown grace.
     *
     * @param host the address to bind
     * @param port the port, 0 for ephemeral
     * @return the config
     */
    public static RemotingServerConfig of(String host, int port) {
        return new RemotingServerConfig(host, port, 3, RemotingFrameLayout.DEFAULT_MAX_FRAME_LENGTH, 120,
                Duration.ofSeconds(5));
    }

    /** @return a copy with another maximum frame length */
    public RemotingServerConfig withMaxFrameLength(int maxFrameLength) {
        return new RemotingServerConfig(host, port, ioThreads, maxFrameLength, idleSeconds, shutdownGrace);
    }

    /** @return a copy with another idle timeout in seconds (0 disables) */
    public RemotingServerConfig withIdleSeconds(int idleSeconds) {
        return new RemotingServerConfig(host, port, ioThreads, maxFrameLength, idleSeconds, shutdownGrace);
    }

    /** @return a copy with another number of I/O threads */
    public RemotingServerConfig withIoThreads(int ioThreads) {
        return new RemotingServerConfig(host, port, ioThreads, maxFrameLength, idleSeconds, shutdownGrace);
    }

    /** @return a copy with another shutdown grace */
    public RemotingServerConfig withShutdownGrace(Duration shutdownGrace) {
        return new RemotingServerConfig(host, port, ioThreads, maxFrameLength, idleSeconds, shutdownGrace);
    }
}
