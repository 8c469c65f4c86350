package org.modmq.remoting.netty;

import io.netty.buffer.PooledByteBufAllocator;

/**
 * Initialises, ahead of need and on the caller's thread, what a server's first start spends its time on
 * in Netty: the native transport (loading the epoll library) and the pooled allocator's arenas. For a
 * process that starts a server a few tens of milliseconds later on another thread; class initialisation
 * is once per JVM and thread-safe, so that start then finds it done.
 */
public final class NettyWarmup {

    private NettyWarmup() {
    }

    public static void run() {
        TransportProbe.epoll();
        PooledByteBufAllocator.DEFAULT.directBuffer(256).release();
        PooledByteBufAllocator.DEFAULT.heapBuffer(256).release();
    }
}
