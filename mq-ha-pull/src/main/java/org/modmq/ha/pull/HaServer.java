package org.modmq.ha.pull;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.WriteBufferWaterMark;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.modmq.api.spi.replication.ReplicaState;
import org.modmq.api.spi.replication.ReplicatedLog;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The master's HA port: accepts slave connections (one per slave, each a {@link SlaveSession}), wakes
 * their streams when the log grows and answers what the slaves acknowledged. Thread-safe.
 */
final class HaServer implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(HaServer.class);

    private final PullConfig config;
    private final ReplicatedLog log;
    private final Clock clock;
    private final AckWaiters waiters;
    private final Set<SlaveSession> sessions = ConcurrentHashMap.newKeySet();
    private final Channel serverChannel;

    /**
     * Binds {@code config.listenHost():config.listenPort()} on {@code group} (owned by the caller).
     *
     * @throws UncheckedIOException when the port cannot be bound; the message names the address and keys
     */
    HaServer(PullConfig config, ReplicatedLog log, Clock clock, AckWaiters waiters, EventLoopGroup group) {
        this.config = Objects.requireNonNull(config, "config");
        this.log = Objects.requireNonNull(log, "log");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.waiters = Objects.requireNonNull(waiters, "waiters");
        ServerBootstrap bootstrap = new ServerBootstrap()
                .group(group)
                .channel(NioServerSocketChannel.class)
                .option(ChannelOption.SO_REUSEADDR, true)
                .childOption(ChannelOption.TCP_NODELAY, true)
                .childOption(ChannelOption.WRITE_BUFFER_WATER_MARK, new WriteBufferWaterMark(256 * 1024, 1024 * 1024))
                .childHandler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel ch) {
                        ch.pipeline().addLast(new SlaveSession(config, log, clock, HaServer.this));
                    }
                });
        var bound = bootstrap.bind(config.listenHost(), config.listenPort()).awaitUninterruptibly();
        if (!bound.isSuccess()) {
            String message = "cannot bind the HA port " + config.listenHost() + ":" + config.listenPort()
                    + " (keys haListenPort and brokerIP2/brokerIP1): " + bound.cause().getMessage();
            if (bound.cause() instanceof IOException io) {
                throw new UncheckedIOException(message, io);
            }
            throw new IllegalStateException(message, bound.cause());
        }
        this.serverChannel = bound.channel();
        LOG.info("HA server (pull) listening on {}", address());
    }

    /** The bound address (the real port when {@code haListenPort=0}). */
    InetSocketAddress address() {
        return (InetSocketAddress) serverChannel.localAddress();
    }

    void register(SlaveSession session) {
        sessions.add(session);
    }

    void unregister(SlaveSession session) {
        sessions.remove(session);
    }

    /** A session read an acknowledgement. Event loop thread. */
    void onAck(long offset) {
        waiters.acked(offset);
    }

    /** Wakes every streaming session. Any thread. */
    void wake() {
        for (SlaveSession session : sessions) {
            session.wake();
        }
    }

    /** The highest acknowledgement among slaves now streaming; -1 when none. */
    long bestAck() {
        long best = -1;
        for (SlaveSession session : sessions) {
            if (session.streaming()) {
                best = Math.max(best, session.acked());
            }
        }
        return best;
    }

    List<ReplicaState> replicas() {
        long max = log.maxOffset();
        List<ReplicaState> states = new ArrayList<>();
        for (SlaveSession session : sessions) {
            states.add(session.state(max));
        }
        return states;
    }

    /** Closes the port and every slave connection. Idempotent. */
    @Override
    public void close() {
        serverChannel.close().awaitUninterruptibly();
        List<SlaveSession> open = new ArrayList<>(sessions);
        for (SlaveSession session : open) {
            session.close();
        }
    }
}
