package org.modmq.ha.pull;

import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.util.concurrent.DefaultThreadFactory;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.modmq.api.config.BrokerRole;
import org.modmq.api.message.PutStatus;
import org.modmq.api.message.PutStatusException;
import org.modmq.api.spi.replication.ReplicaState;
import org.modmq.api.spi.replication.ReplicationContext;
import org.modmq.api.spi.replication.ReplicationStrategy;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * RocketMQ's classic HA as a {@link ReplicationStrategy}. On a master ({@code SYNC_MASTER},
 * {@code ASYNC_MASTER}) {@link #start()} binds the HA port and serves slaves through an {@link HaServer};
 * on a {@code SLAVE} it follows the master given by {@link #followMaster} or {@code haMasterAddress}
 * through a {@link MasterFollower}. Both run on one NIO event loop thread owned by this object.
 *
 * <p>Threads: every method is thread-safe. {@link #awaitReplicated} futures complete on the event loop
 * (acknowledgement) or on the context's scheduler (timeout).
 */
final class PullReplicationStrategy implements ReplicationStrategy {

    private static final Logger LOG = LoggerFactory.getLogger(PullReplicationStrategy.class);

    private final PullConfig config;
    private final ReplicationContext context;
    private final AckWaiters waiters;
    private MultiThreadIoEventLoopGroup group;
    private HaServer server;
    private MasterFollower follower;
    private String pendingMaster;
    private boolean started;
    private boolean closed;

    PullReplicationStrategy(PullConfig config, ReplicationContext context) {
        this.config = Objects.requireNonNull(config, "config");
        this.context = Objects.requireNonNull(context, "context");
        this.waiters = new AckWaiters(context.plugin().scheduler());
        this.pendingMaster = config.masterAddress().orElse(null);
    }

    @Override
    public String name() {
        return PullReplicationStrategyProvider.NAME;
    }

    /**
     * Master: binds the HA port (fails with an {@link java.io.UncheckedIOException} naming the address when
     * it cannot). Slave: dials the master if one is known. Called once; later calls are ignored.
     */
    @Override
    public synchronized void start() {
        if (started || closed) {
            return;
        }
        started = true;
        group = new MultiThreadIoEventLoopGroup(1, new DefaultThreadFactory("modmq-ha-pull", true),
                NioIoHandler.newFactory());
        try {
            if (context.role().isMaster()) {
                server = new HaServer(config, context.log(), context.plugin().clock(), waiters, group);
            } else {
                follower = new MasterFollower(config, context.log(), context.plugin().clock(), group);
                if (pendingMaster != null) {
                    follower.follow(pendingMaster);
                }
            }
        } catch (RuntimeException e) {
            shutdownGroup();
            throw e;
        }
    }

    @Override
    public void appended(long endOffset) {
        HaServer current = server;
        if (current != null) {
            current.wake();
        }
    }

    /**
     * Completes once a slave acknowledged {@code offset}. Fails at once with {@code SLAVE_NOT_AVAILABLE}
     * when no slave is streaming or the best one is more than {@code haSlaveFallbehindMax} behind the
     * log's end, else with {@code FLUSH_SLAVE_TIMEOUT} after {@code timeout}.
     *
     * @throws IllegalStateException on a slave
     */
    @Override
    public CompletableFuture<Void> awaitReplicated(long offset, Duration timeout) {
        Objects.requireNonNull(timeout, "timeout");
        if (!context.role().isMaster()) {
            throw new IllegalStateException("awaitReplicated is for a master; this broker is a " + context.role());
        }
        HaServer current = server;
        long best = current == null ? -1 : current.bestAck();
        if (best >= offset) {
            return CompletableFuture.completedFuture(null);
        }
        if (best < 0) {
            return CompletableFuture.failedFuture(new PutStatusException(PutStatus.SLAVE_NOT_AVAILABLE,
                    "no slave is connected"));
        }
        long behind = context.log().maxOffset() - best;
        if (behind > config.slaveFallbehindMax()) {
            return CompletableFuture.failedFuture(new PutStatusException(PutStatus.SLAVE_NOT_AVAILABLE,
                    "the best slave is " + behind + " bytes behind (haSlaveFallbehindMax "
                            + config.slaveFallbehindMax() + ")"));
        }
        return waiters.await(offset, timeout);
    }

    @Override
    public List<ReplicaState> replicas() {
        HaServer current = server;
        return current == null ? List.of() : current.replicas();
    }

    /**
     * Slave: follows {@code haAddress} ({@code host:port}); null stops. Before {@link #start()} the address
     * is remembered. A master accepts only null.
     *
     * @throws IllegalStateException when a master is told to follow an address
     * @throws org.modmq.api.config.ConfigException when the address is not {@code host:port}
     */
    @Override
    public synchronized void followMaster(String haAddress) {
        if (context.role().isMaster()) {
            if (haAddress != null) {
                throw new IllegalStateException("a " + context.role() + " does not follow a master");
            }
            return;
        }
        if (haAddress != null) {
            PullConfig.parseAddress(haAddress);
        }
        pendingMaster = haAddress;
        if (follower != null) {
            follower.follow(haAddress);
        }
    }

    /** The bound HA address of a started master (tests; a broker logs it). */
    InetSocketAddress listenAddress() {
        HaServer current = server;
        if (current == null) {
            throw new IllegalStateException("not a started master");
        }
        return current.address();
    }

    /** The slave side's state (tests). */
    MasterFollower.State followerState() {
        MasterFollower current = follower;
        return current == null ? MasterFollower.State.IDLE : current.state();
    }

    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        RuntimeException first = null;
        for (AutoCloseable part : new AutoCloseable[] {follower, server, waiters}) {
            try {
                if (part != null) {
                    part.close();
                }
            } catch (Exception e) {
                if (first == null) {
                    first = e instanceof RuntimeException r ? r : new IllegalStateException(e);
                } else {
                    first.addSuppressed(e);
                }
            }
        }
        shutdownGroup();
        if (first != null) {
            throw first;
        }
    }

    private void shutdownGroup() {
        if (group != null && !group.shutdownGracefully(0, 2, TimeUnit.SECONDS)
                .awaitUninterruptibly(5, TimeUnit.SECONDS)) {
            LOG.warn("HA event loop did not stop within 5 s");
        }
    }
}
