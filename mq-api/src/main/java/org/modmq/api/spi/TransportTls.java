package org.modmq.api.spi;

import io.netty.buffer.ByteBufAllocator;
import javax.net.ssl.SSLEngine;

/**
 * TLS for the connections a plugin opens or accepts itself (the HA port of a replication strategy),
 * built by the runtime from the process's certificate settings so that plugins read no key files. A
 * plugin wraps each engine in its transport's TLS handler, first in the pipeline. Thread-safe.
 */
public interface TransportTls {

    /**
     * @param allocator the connection's allocator
     * @return a new server-mode engine for one accepted connection (certificate and client
     *     authentication as configured)
     */
    SSLEngine newServerEngine(ByteBufAllocator allocator);

    /**
     * @param allocator the connection's allocator
     * @param host the peer's host, as dialed
     * @param port the peer's port
     * @return a new client-mode engine for one connection to {@code host:port}
     */
    SSLEngine newClientEngine(ByteBufAllocator allocator, String host, int port);
}
