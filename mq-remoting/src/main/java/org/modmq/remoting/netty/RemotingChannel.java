package org.modmq.remoting.netty;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import org.modmq.remoting.protocol.RemotingCommand;

/**
 * One remoting connection as seen by processors and by the owner of a server or client.
 * There is exactly one instance per TCP connection, so it can be used as a map key (identity
 * equality) for as long as the connection lives, e.g. to remember which client sent a heartbeat.
 *
 * <p>Threading: all methods are thread-safe and never block.
 */
public interface RemotingChannel {

    /** @return a short id, unique among the live connections of this process */
    String id();

    /** @return the peer's address */
    InetSocketAddress remoteAddress();

    /** @return our side's address */
    InetSocketAddress localAddress();

    /** @return the peer as {@code host:port} (IP literal), as RocketMQ reports client addresses */
    String remoteAddressText();

    /** @return whether the connection is open */
    boolean isActive();

    /**
     * Sends a one-way request (flag bit 1 is set here); no response is expected. Ownership of a
     * {@code ByteBuf} body passes to the remoting layer.
     *
     * @param request the request
     * @return completes when written, or fails with {@link RemotingSendException}
     */
    CompletableFuture<Void> sendOneway(RemotingCommand request);

    /**
     * Sends a request and waits for the response with the same opaque. Ownership of a
     * {@code ByteBuf} body passes to the remoting layer.
     *
     * @param request the request (its opaque must be unique among pending requests; use
     *     {@link RemotingCommand#request(int)})
     * @param timeout how long to wait for the response
     * @return the response (any code), or fails with {@link RemotingTimeoutException} (the pending
     *     entry is removed) or {@link RemotingSendException} (write failed or connection closed)
     */
    CompletableFuture<RemotingCommand> invoke(RemotingCommand request, Duration timeout);

    /** Closes the connection; pending invocations on it fail. Idempotent. */
    void close();
}
