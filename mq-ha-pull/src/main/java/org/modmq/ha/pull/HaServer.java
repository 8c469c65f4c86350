package org.modmq.ha.pull;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.ChannelPipeline;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.WriteBufferWaterMark;
import io.netty.channel.socket.SocketChannel;
import io.netty.handler.ssl.SslHandler;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import org.modmq.api.spi.TransportTls;
import org.modmq.api.spi.replication.ReplicaProgress;
import org.modmq.api.spi.replication.ReplicatedLog;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The HA port, bound on every role (a replica may become master). While the store is master it serves
 * replica connections, one session per connection: a {@link SlaveSession} for the classic protocol, an
 * {@link AutoSwitchSlaveSession} in controller mode. While replica it accepts and at once closes every
 * connection. Each {@link #serve} or {@link #refuse} starts a new generation and closes the sessions of the
 * previous one, so no connection outlives the role it was accepted in.
 *
 * <p>Threads: {@link #serve}, {@link #refuse} and {@link #close} come from the store's transition thread,
 * {@link #wake} from writer threads; sessions call the {@link SessionRegistry} methods on the event loop.
 * Thread-safe.
 */
final class HaServer implements SessionRegistry, AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(HaServer.class);
    private static final long REFUSING = -1;

    private final ServingContext context;
    private final Map<ServedSession, Long> sessions = new ConcurrentHashMap<>();
    private final Channel serverChannel;
    private final TransportTls tls;
    private final Object lock = new Object();
    private volatile long generation;
    private volatile long served = REFUSING;

    /**
     * Binds {@code listenHost:listenPort} on {@code group} (owned by the caller); refuses connections until
     * {@link #serve}.
     *
     * @throws UncheckedIOException when the port cannot be bound; the message names the address and keys
     */
    HaServer(PullConfig config, ReplicatedLog log, ReplicaProgress progress, Clock clock, EventLoopGroup group) {
        this(config, log, progress, clock, group, null);
    }

    /** As above; with {@code tls} (null for plain) every accepted connection is TLS only. */
    HaServer(PullConfig config, ReplicatedLog log, ReplicaProgress progress, Clock clock, EventLoopGroup group,
             TransportTls tls) {
        Objects.requireNonNull(group, "group");
        this.tls = tls;
        this.context = new ServingContext(config, log, progress, clock, this);
        ServerBootstrap bootstrap = new ServerBootstrap()
                .group(group)
                .channel(PullTransport.serverChannelClass(group))
                .option(ChannelOption.SO_REUSEADDR, true)
                .childOption(ChannelOption.TCP_NODELAY, true)
                .childOption(ChannelOption.WRITE_BUFFER_WATER_MARK, new WriteBufferWaterMark(256 * 1024, 1024 * 1024))
                .childHandler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel ch) {
                        accept(ch);
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
        LOG.info("HA server (pull, {} protocol) listening on {}{}{}", config.controllerMode() ? "AutoSwitch" : "classic",
                address(), tls == null ? "" : " (TLS)", config.auth().isPresent() ? " (haAuthSecret)" : "");
    }

    private void accept(SocketChannel ch) {
        long gen = served;
        if (gen == REFUSING) {
            LOG.warn("replica connection from {} refused: this broker is not the master",
                    String.valueOf(ch.remoteAddress()).replaceFirst("^/", ""));
            ch.close();
            return;
        }
        if (tls != null) {
            ch.pipeline().addLast("tls", new SslHandler(tls.newServerEngine(ch.alloc())));
        }
        PullConfig config = context.config();
        if (config.auth().isPresent()) {
            // TLS first, then the proof; the session is added once the replica proved haAuthSecret.
            ch.pipeline().addLast("auth", HaAuthGate.accepting(config.auth().get(), config.housekeepingInterval(),
                    pipeline -> addSession(pipeline, gen)));
        } else {
            addSession(ch.pipeline(), gen);
        }
    }

    private void addSession(ChannelPipeline pipeline, long gen) {
        if (context.config().controllerMode()) {
            pipeline.addLast(new AutoSwitchSlaveDecoder(), new AutoSwitchSlaveSession(context, gen));
        } else {
            pipeline.addLast(new SlaveSession(context, gen));
        }
    }

    /** The bound address (the real port when {@code haListenPort=0}). */
    InetSocketAddress address() {
        return (InetSocketAddress) serverChannel.localAddress();
    }

    /** Serves replicas from now on (master of {@code epoch}); connections accepted before are closed. */
    void serve(int epoch) {
        synchronized (lock) {
            long next = ++generation;
            served = next;
            closeOlderThan(next);
            LOG.info("HA server serves replicas as master of epoch {}", epoch);
        }
    }

    /** Refuses replicas from now on (this broker is a replica); served connections are closed. */
    void refuse() {
        synchronized (lock) {
            long next = ++generation;
            boolean wasServing = served != REFUSING;
            served = REFUSING;
            closeOlderThan(next);
            if (wasServing) {
                LOG.info("HA server stops serving replicas");
            }
        }
    }

    private void closeOlderThan(long gen) {
        for (Map.Entry<ServedSession, Long> entry : sessions.entrySet()) {
            if (entry.getValue() < gen) {
                entry.getKey().close();
            }
        }
    }

    /** Number of sessions connected now (tests). */
    int sessionCount() {
        return sessions.size();
    }

    @Override
    public boolean register(ServedSession session, long gen) {
        sessions.put(session, gen);
        // A serve or refuse may have swept the map between accept and registration: check after putting.
        if (served != gen) {
            sessions.remove(session);
            return false;
        }
        return true;
    }

    @Override
    public void unregister(ServedSession session) {
        sessions.remove(session);
    }

    @Override
    public void acknowledged() {
        if (context.config().controllerMode()) {
            wake();
        }
    }

    /** Wakes every session. Any thread. */
    void wake() {
        for (ServedSession session : sessions.keySet()) {
            session.wake();
        }
    }

    /** Closes the port and every replica connection. Idempotent. */
    @Override
    public void close() {
        refuse();
        serverChannel.close().awaitUninterruptibly();
        List<ServedSession> open = new ArrayList<>(sessions.keySet());
        for (ServedSession session : open) {
            session.close();
        }
    }
}
