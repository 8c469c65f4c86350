package org.modmq.ha.pull;

import io.netty.channel.Channel;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.IoEventLoopGroup;
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
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Netty transport of the pull strategy: epoll when its native library loads (a replica that wakes
 * for every frame spent about a sixth of its CPU in NIO's selector), else NIO. The channel classes
 * follow the group a caller passes, so tests may hand in a NIO group. Thread-safe.
 */
final class PullTransport {

    private static final Logger LOG = LoggerFactory.getLogger(PullTransport.class);

    private PullTransport() {
    }

    /** One daemon event loop named {@code modmq-ha-pull-N}: epoll when available. */
    static MultiThreadIoEventLoopGroup newGroup() {
        IoHandlerFactory factory;
        if (Epoll.isAvailable()) {
            factory = EpollIoHandler.newFactory();
            LOG.debug("pull replication transport: epoll");
        } else {
            factory = NioIoHandler.newFactory();
            Throwable cause = Epoll.unavailabilityCause();
            LOG.info("pull replication transport: NIO, epoll unavailable: {}", cause == null ? "unknown" : cause.toString());
        }
        return new MultiThreadIoEventLoopGroup(1, new DefaultThreadFactory("modmq-ha-pull", true), factory);
    }

    static Class<? extends ServerChannel> serverChannelClass(EventLoopGroup group) {
        return epoll(group) ? EpollServerSocketChannel.class : NioServerSocketChannel.class;
    }

    static Class<? extends Channel> channelClass(EventLoopGroup group) {
        return epoll(group) ? EpollSocketChannel.class : NioSocketChannel.class;
    }

    private static boolean epoll(EventLoopGroup group) {
        return group instanceof IoEventLoopGroup io && io.isIoType(EpollIoHandler.class);
    }
}
