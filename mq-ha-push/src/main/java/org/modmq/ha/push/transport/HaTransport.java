package org.modmq.ha.push.transport;

import io.netty.channel.Channel;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.IoHandlerFactory;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.ServerChannel;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.epoll.EpollSocketChannel;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.util.concurrent.DefaultThreadFactory;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Netty transport of the push strategy: epoll when its native library loads, else NIO, probed
 * once per process with the cause logged. Thread-safe.
 */
public final class HaTransport {

    private static final Logger LOG = LoggerFactory.getLogger(HaTransport.class);
    private static final boolean EPOLL = probe();

    private HaTransport() {
    }

    private static boolean probe() {
        if (Epoll.isAvailable()) {
            LOG.info("push replication transport: epoll");
            return true;
        }
        Throwable cause = Epoll.unavailabilityCause();
        LOG.info("push replication transport: NIO, epoll unavailable: {}", cause == null ? "unknown" : cause.toString());
        return false;
    }

    /** A group of {@code threads} daemon event loops whose threads are named {@code name-N}. */
    public static MultiThreadIoEventLoopGroup newGroup(String name, int threads) {
        IoHandlerFactory factory = EPOLL ? EpollIoHandler.newFactory() : NioIoHandler.newFactory();
        return new MultiThreadIoEventLoopGroup(threads, new DefaultThreadFactory(name, true), factory);
    }

    public static Class<? extends ServerChannel> serverChannelClass() {
        return EPOLL ? EpollServerSocketChannel.class : NioServerSocketChannel.class;
    }

    public static Class<? extends Channel> channelClass() {
        return EPOLL ? EpollSocketChannel.class : NioSocketChannel.class;
    }

    /**
     * Shuts {@code group} down without a quiet period and waits up to 5 s; restores the interrupt flag
     * when interrupted.
     */
    public static void shutdown(EventLoopGroup group) {
        try {
            if (!group.shutdownGracefully(0, 5, TimeUnit.SECONDS).await(5, TimeUnit.SECONDS)) {
                LOG.warn("HA event loops did not stop within 5 s");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
