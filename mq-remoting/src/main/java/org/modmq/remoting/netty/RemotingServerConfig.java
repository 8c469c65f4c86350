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
 * @param maxPendingFrameBytes the most bytes all connections together may hold in frames not yet
 *     complete; a connection that would pass it is closed (default: a quarter of the direct memory
 *     Netty may use, at least one frame plus 1 MiB, at most 1 GiB)
 * @param frameReceiveTimeout a frame must arrive completely within this long after its first byte,
 *     else the connection is closed; zero disables (default 30 s)
 * @param maxConnections connections accepted beyond this many are closed at once (default 20 000)
 */
public record RemotingServerConfig(String host, int port, int ioThreads, int maxFrameLength, int idleSeconds,
        Duration shutdownGrace, long maxPendingFrameBytes, Duration frameReceiveTimeout, int maxConnections) {

    /** Default connection limit: far above what a broker's clients open, far below file-descriptor trouble. */
    public static final int DEFAULT_MAX_CONNECTIONS = 20_000;
    public static final Duration DEFAULT_FRAME_RECEIVE_TIMEOUT = Duration.ofSeconds(30);
    private static final long MIB = 1024 * 1024;

    /** Validates every value. */
    public RemotingServerConfig {
        Objects.requireNonNull(host, "host");
        Objects.requireNonNull(shutdownGrace, "shutdownGrace");
        Objects.requireNonNull(frameReceiveTimeout, "frameReceiveTimeout");
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
        if (maxPendingFrameBytes < 1) {
            throw new IllegalArgumentException("maxPendingFrameBytes must be >= 1: " + maxPendingFrameBytes);
        }
        if (frameReceiveTimeout.isNegative()) {
            throw new IllegalArgumentException("frameReceiveTimeout must not be negative: " + frameReceiveTimeout);
        }
        if (maxConnections < 1) {
            throw new IllegalArgumentException("maxConnections must be >= 1: " + maxConnections);
        }
    }

    /**
     * Defaults: 3 I/O threads, 16 MiB frames, 120 s idle, 5 s shutdown grace, the pending-frame bound of
     * {@link #defaultPendingFrameBytes}, 30 s to receive a frame, 20 000 connections.
     *
     * @param host the address to bind
     * @param port the port, 0 for ephemeral
     * @return the config
     */
    public static RemotingServerConfig of(String host, int port) {
        int frame = RemotingFrameLayout.DEFAULT_MAX_FRAME_LENGTH;
        return new RemotingServerConfig(host, port, 3, frame, 120, Duration.ofSeconds(5),
                defaultPendingFrameBytes(frame), DEFAULT_FRAME_RECEIVE_TIMEOUT, DEFAULT_MAX_CONNECTIONS);
    }

    /**
     * A quarter of the direct memory Netty may allocate, so partly received frames leave room for
     * everything else, but at least one whole frame (plus 1 MiB) and at most 1 GiB.
     */
    public static long defaultPendingFrameBytes(int maxFrameLength) {
        long quarter = io.netty.util.internal.PlatformDependent.maxDirectMemory() / 4;
        return Math.max(maxFrameLength + MIB, Math.min(quarter, 1024 * MIB));
    }

    /** @return a copy with another maximum frame length (the pending-frame bound stays) */
    public RemotingServerConfig withMaxFrameLength(int maxFrameLength) {
        return new RemotingServerConfig(host, port, ioThreads, maxFrameLength, idleSeconds, shutdownGrace,
                maxPendingFrameBytes, frameReceiveTimeout, maxConnections);
    }

    /** @return a copy with another idle timeout in seconds (0 disables) */
    public RemotingServerConfig withIdleSeconds(int idleSeconds) {
        return new RemotingServerConfig(host, port, ioThreads, maxFrameLength, idleSeconds, shutdownGrace,
                maxPendingFrameBytes, frameReceiveTimeout, maxConnections);
    }

    /** @return a copy with another number of I/O threads */
    public RemotingServerConfig withIoThreads(int ioThreads) {
        return new RemotingServerConfig(host, port, ioThreads, maxFrameLength, idleSeconds, shutdownGrace,
                maxPendingFrameBytes, frameReceiveTimeout, maxConnections);
    }

    /** @return a copy with another shutdown grace */
    public RemotingServerConfig withShutdownGrace(Duration shutdownGrace) {
        return new RemotingServerConfig(host, port, ioThreads, maxFrameLength, idleSeconds, shutdownGrace,
                maxPendingFrameBytes, frameReceiveTimeout, maxConnections);
    }

    /** @return a copy with another bound on bytes held in partly received frames */
    public RemotingServerConfig withMaxPendingFrameBytes(long maxPendingFrameBytes) {
        return new RemotingServerConfig(host, port, ioThreads, maxFrameLength, idleSeconds, shutdownGrace,
                maxPendingFrameBytes, frameReceiveTimeout, maxConnections);
    }

    /** @return a copy with another frame receive timeout (zero disables) */
    public RemotingServerConfig withFrameReceiveTimeout(Duration frameReceiveTimeout) {
        return new RemotingServerConfig(host, port, ioThreads, maxFrameLength, idleSeconds, shutdownGrace,
                maxPendingFrameBytes, frameReceiveTimeout, maxConnections);
    }

    /** @return a copy with another connection limit */
    public RemotingServerConfig withMaxConnections(int maxConnections) {
        return new RemotingServerConfig(host, port, ioThreads, maxFrameLength, idleSeconds, shutdownGrace,
                maxPendingFrameBytes, frameReceiveTimeout, maxConnections);
    }
}
