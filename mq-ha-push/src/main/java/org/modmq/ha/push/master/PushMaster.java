package org.modmq.ha.push.master;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.ChannelPipeline;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.WriteBufferWaterMark;
import io.netty.handler.ssl.SslHandler;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArraySet;
import java.util.concurrent.TimeUnit;
import org.modmq.api.spi.TransportTls;
import org.modmq.api.spi.replication.ReplicaProgress;
import org.modmq.api.spi.replication.ReplicatedLog;
import org.modmq.ha.push.config.PushConfig;
import org.modmq.ha.push.transport.HaAuthGate;
import org.modmq.ha.push.transport.HaTransport;
import org.modmq.ha.push.wire.PushFrameDecoder;
import org.modmq.ha.push.wire.PushFrameLayout;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The listening side of the push strategy: bound on the HA port from {@link #start()} on, whatever the
 * role, it keeps one {@link ReplicaSession} per connection. While {@linkplain #serve serving} (master)
 * sessions stream the log to their replicas; otherwise every new connection is refused with
 * {@code NOT_MASTER}.
 *
 * <p>Threads: all public methods are thread-safe; {@link #serve}, {@link #stopServing} and
 * {@link #close} are called one at a time by the strategy. {@link #appended} never blocks: it queues a
 * send pass on each streaming session's event loop (one thread, {@code modmq-ha-push-master-*}).
 */
public final class PushMaster implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(PushMaster.class);
    private static final long CLOSE_WAIT_MILLIS = 2_000;

    private final PushConfig config;
    private final ReplicatedLog log;
    private final ReplicaProgress progress;
    private final Clock clock;
    private final TransportTls tls;
    private final Set<ReplicaSession> sessions = new CopyOnWriteArraySet<>();
    private MultiThreadIoEventLoopGroup group;
    private Channel server;
    private volatile boolean serving;
    private volatile int epoch;
    private boolean closed;

    public PushMaster(PushConfig config, ReplicatedLog log, ReplicaProgress progress, Clock clock) {
        this(config, log, progress, clock, null);
    }

    /** As above; with {@code tls} (null for plain) every accepted connection is TLS only. */
    public PushMaster(PushConfig config, ReplicatedLog log, ReplicaProgress progress, Clock clock, TransportTls tls) {
        this.tls = tls;
        this.config = Objects.requireNonNull(config, "config");
        this.log = Objects.requireNonNull(log, "log");
        this.progress = Objects.requireNonNull(progress, "progress");
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    /**
     * Binds {@code bindHost:listenPort}; not serving yet. Called once.
     *
     * @throws UncheckedIOException when the port cannot be bound, naming the address
     */
    public synchronized void start() {
        if (closed || group != null) {
            throw new IllegalStateException("push master already started or closed");
        }
        group = HaTransport.newGroup("modmq-ha-push-master", 1);
        ServerBootstrap bootstrap = new ServerBootstrap()
                .group(group)
                .channel(HaTransport.serverChannelClass())
                .option(ChannelOption.SO_REUSEADDR, true)
                .childOption(ChannelOption.TCP_NODELAY, true)
                .childOption(ChannelOption.WRITE_BUFFER_WATER_MARK, new WriteBufferWaterMark(1 << 20, 4 << 20))
                .childHandler(new ChannelInitializer<>() {
                    @Override
                    protected void initChannel(Channel channel) {
                        if (tls != null) {
                            channel.pipeline().addLast("tls", new SslHandler(tls.newServerEngine(channel.alloc())));
                        }
                        if (config.auth().isPresent()) {
                            // TLS first, then the proof; the session is added once the replica proved the secret.
                            channel.pipeline().addLast("auth", HaAuthGate.accepting(config.auth().get(),
                                    config.silenceTimeout(), pipeline -> addSession(pipeline)));
                        } else {
                            addSession(channel.pipeline());
                        }
                    }
                });
        InetSocketAddress address = new InetSocketAddress(config.bindHost(), config.listenPort());
        try {
            server = bootstrap.bind(address).syncUninterruptibly().channel();
        } catch (Exception e) {
            // Netty rethrows the bind's IOException unchecked
            HaTransport.shutdown(group);
            throw new UncheckedIOException("cannot listen for replicas on " + address + " (haListenPort, haBindAddress)",
                    e instanceof IOException io ? io : new IOException(e.toString(), e));
        }
        LOG.info("push HA listener on {}{}{}", server.localAddress(), tls == null ? "" : " (TLS)",
                config.auth().isPresent() ? " (haAuthSecret)" : "");
    }

    private void addSession(ChannelPipeline pipeline) {
        pipeline.addLast(new PushFrameDecoder(PushConfig.MAX_FRAME_BODY + PushFrameLayout.DATA_PREFIX_LENGTH),
                new ReplicaSession(this, log, progress, config, clock));
    }

    /** The bound address (the real port when {@code haListenPort=0}); null before {@link #start()}. */
    public synchronized InetSocketAddress localAddress() {
        return server == null ? null : (InetSocketAddress) server.localAddress();
    }

    /**
     * Serves replicas as master of {@code servingEpoch} from now on. Connections served in another epoch
     * are closed first (their replicas reconnect and handshake against the new history).
     */
    public void serve(int servingEpoch) {
        if (serving && epoch == servingEpoch) {
            return;
        }
        if (serving) {
            closeSessions("master epoch " + epoch + " -> " + servingEpoch);
        }
        epoch = servingEpoch;
        serving = true;
        LOG.info("push master serving replicas in epoch {}", servingEpoch);
    }

    /** Stops serving: every replica connection is closed (waiting briefly) and new ones are refused. */
    public void stopServing() {
        if (!serving) {
            return;
        }
        serving = false;
        closeSessions("this broker is no longer the master");
        LOG.info("push master stopped serving replicas");
    }

    /** Whether sessions may stream now. */
    boolean serving() {
        return serving;
    }

    /** The epoch served in. */
    int epoch() {
        return epoch;
    }

    /** An unordered hint that the log grew: each streaming session sends up to the log's end. */
    public void appended() {
        for (ReplicaSession session : sessions) {
            session.kick();
        }
    }

    /** The sessions connected now (any state). */
    List<ReplicaSession> sessions() {
        return List.copyOf(sessions);
    }

    /** Registers a new connection; returns whether it may be served (else the session refuses it). */
    boolean opened(ReplicaSession session) {
        sessions.add(session);
        // Read after the add: a concurrent stopServing either sees this session or this sees it stopped.
        return serving;
    }

    void closed(ReplicaSession session) {
        sessions.remove(session);
    }

    private void closeSessions(String why) {
        List<Channel> channels = new ArrayList<>();
        for (ReplicaSession session : sessions) {
            Channel channel = session.stop(why);
            if (channel != null) {
                channels.add(channel);
            }
        }
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(CLOSE_WAIT_MILLIS);
        for (Channel channel : channels) {
            if (channel.eventLoop().inEventLoop()) {
                continue;
            }
            long left = deadline - System.nanoTime();
            if (left <= 0 || !channel.closeFuture().awaitUninterruptibly(left, TimeUnit.NANOSECONDS)) {
                LOG.warn("replica connection {} still closing after {} ms", channel.remoteAddress(), CLOSE_WAIT_MILLIS);
                return;
            }
        }
    }

    /** Stops listening and closes every replica connection. Idempotent. */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        serving = false;
        for (ReplicaSession session : sessions) {
            session.stop("push replication stopped");
        }
        if (server != null) {
            server.close().awaitUninterruptibly(CLOSE_WAIT_MILLIS, TimeUnit.MILLISECONDS);
        }
        if (group != null) {
            HaTransport.shutdown(group);
        }
        LOG.info("push master stopped");
    }
}
