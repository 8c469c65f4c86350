package org.modmq.ha.push.master;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.WriteBufferWaterMark;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import org.modmq.api.message.PutStatus;
import org.modmq.api.message.PutStatusException;
import org.modmq.api.spi.PluginContext;
import org.modmq.api.spi.replication.ReplicaState;
import org.modmq.api.spi.replication.ReplicatedLog;
import org.modmq.ha.push.config.PushConfig;
import org.modmq.ha.push.transport.HaTransport;
import org.modmq.ha.push.wire.PushFrameDecoder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The master side of the push strategy: listens on the HA port, keeps one {@link ReplicaSession} per
 * connected replica and answers {@link #awaitReplicated}.
 *
 * <p>Threads: all public methods are thread-safe. {@link #appended} and {@link #awaitReplicated} never
 * block on a replica: they queue work on the event loop (one thread, {@code modmq-ha-push-master-*})
 * and return. Futures from {@link #awaitReplicated} complete on the event loop that read the
 * acknowledgement, or on the context's scheduler when they time out.
 */
public final class PushMaster implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(PushMaster.class);

    private final PushConfig config;
    private final ReplicatedLog log;
    private final PluginContext plugin;
    private final List<ReplicaSession> streaming = new CopyOnWriteArrayList<>();
    private final ReplicationWaiters waiters;
    private MultiThreadIoEventLoopGroup group;
    private Channel server;
    private boolean closed;

    public PushMaster(PushConfig config, ReplicatedLog log, PluginContext plugin) {
        this.config = Objects.requireNonNull(config, "config");
        this.log = Objects.requireNonNull(log, "log");
        this.plugin = Objects.requireNonNull(plugin, "plugin");
        this.waiters = new ReplicationWaiters(plugin.scheduler());
    }

    /**
     * Binds {@code bindHost:listenPort}. Called once.
     *
     * @throws IllegalStateException when the port cannot be bound, naming the address
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
                        channel.pipeline().addLast(new PushFrameDecoder(PushConfig.MAX_FRAME_BODY),
                                new ReplicaSession(PushMaster.this, log, config, plugin.clock()));
                    }
                });
        InetSocketAddress address = new InetSocketAddress(config.bindHost(), config.listenPort());
        try {
            server = bootstrap.bind(address).syncUninterruptibly().channel();
        } catch (RuntimeException e) {
            HaTransport.shutdown(group);
            throw new IllegalStateException("cannot listen for replicas on " + address + ": " + e, e);
        }
        LOG.info("push master listening for replicas on {}", server.localAddress());
    }

    /** The bound address (the real port when {@code haListenPort=0}); null before {@link #start()}. */
    public synchronized InetSocketAddress localAddress() {
        return server == null ? null : (InetSocketAddress) server.localAddress();
    }

    /** The log now ends at {@code endOffset}: every streaming replica is sent the new bytes at once. */
    public void appended(long endOffset) {
        for (ReplicaSession session : streaming) {
            session.kick();
        }
    }

    /**
     * Completes when an in-sync replica acknowledged {@code offset}; fails at once with
     * {@code SLAVE_NOT_AVAILABLE} when no replica is in sync, after {@code timeout} with
     * {@code FLUSH_SLAVE_TIMEOUT}.
     */
    public CompletableFuture<Void> awaitReplicated(long offset, Duration timeout) {
        Objects.requireNonNull(timeout, "timeout");
        long end = Math.max(log.maxOffset(), offset);
        boolean any = false;
        for (ReplicaSession session : streaming) {
            if (session.inSync(end)) {
                if (session.ackedOffset() >= offset) {
                    return CompletableFuture.completedFuture(null);
                }
                any = true;
            }
        }
        if (!any) {
            return CompletableFuture.failedFuture(new PutStatusException(PutStatus.SLAVE_NOT_AVAILABLE,
                    streaming.isEmpty() ? "no replica connected"
                            : "every replica is more than haSlaveFallbehindMax=" + config.fallBehindMaxBytes()
                            + " bytes behind"));
        }
        return waiters.register(offset, timeout, this::bestInSyncAck);
    }

    /** The replicas streaming now. */
    public List<ReplicaState> replicas() {
        long end = log.maxOffset();
        List<ReplicaState> states = new ArrayList<>();
        for (ReplicaSession session : streaming) {
            states.add(session.state(end));
        }
        return List.copyOf(states);
    }

    void sessionStreaming(ReplicaSession session) {
        streaming.add(session);
    }

    void sessionClosed(ReplicaSession session) {
        streaming.remove(session);
    }

    void acknowledged(ReplicaSession session, long offset) {
        if (session.inSync(log.maxOffset())) {
            waiters.acknowledged(offset);
        }
    }

    private long bestInSyncAck() {
        long end = log.maxOffset();
        long best = -1;
        for (ReplicaSession session : streaming) {
            if (session.inSync(end)) {
                best = Math.max(best, session.ackedOffset());
            }
        }
        return best;
    }

    /** Stops listening, closes every replica connection and fails pending waiters. Idempotent. */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        if (server != null) {
            server.close().awaitUninterruptibly();
        }
        if (group != null) {
            HaTransport.shutdown(group);
        }
        waiters.failAll(PutStatus.SLAVE_NOT_AVAILABLE, "push replication stopped");
        LOG.info("push master stopped");
    }
}
