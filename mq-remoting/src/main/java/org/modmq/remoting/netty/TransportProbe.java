package org.modmq.remoting.netty;

import io.netty.channel.Channel;
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

/** Chooses epoll when its native library loads, else NIO; probed once per process, cause logged. */
final class TransportProbe {

    private static final Logger LOG = LoggerFactory.getLogger(TransportProbe.class);
    private static final boolean EPOLL = probe();

    private TransportProbe() {
    }

    private static boolean probe() {
        if (Epoll.isAvailable()) {
            LOG.info("remoting transport: epoll");
            return true;
        }
        Throwable cause = Epoll.unavailabilityCause();
        LOG.info("remoting transport: NIO, epoll unavailable: {}", cause == null ? "unknown" : cause.toString());
        return false;
    }

    static boolean epoll() {
        return EPOLL;
    }

    static MultiThreadIoEventLoopGroup newGroup(String name, int threads) {
        IoHandlerFactory factory = EPOLL ? EpollIoHandler.newFactory() : NioIoHandler.newFactory();
        return new MultiThreadIoEventLoopGroup(threads, new DefaultThreadFactory(name, true), factory);
    }

    static Class<? extends ServerChannel> serverChannelClass() {
        return EPOLL ? EpollServerSocketChannel.class : NioServerSocketChannel.class;
    }

    static Class<? extends Channel> channelClass() {
        return EPOLL ? EpollSocketChannel.class : NioSocketChannel.class;
    }
}
