package org.modmq.ha.pull;

import io.netty.channel.MultiThreadIoEventLoopGroup;
import java.net.InetSocketAddress;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import org.modmq.api.spi.TransportTls;
import org.modmq.api.spi.replication.ReplicaLagGauges;
import org.modmq.api.spi.replication.ReplicaProgress;
import org.modmq.api.spi.replication.ReplicationContext;
import org.modmq.api.spi.replication.ReplicationStrategy;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * RocketMQ's HA protocols as a {@link ReplicationStrategy}: classic HA, or with
 * {@code enableControllerMode=true} RocketMQ 5's AutoSwitch HA. {@link #start()} binds the HA port (an
 * {@link HaServer}) whatever the role; {@link #becomeMaster} lets it serve replicas and stops following,
 * {@link #becomeReplica} makes it refuse replicas and follow the master named through a
 * {@link MasterFollower}. Server and follower share one NIO event loop thread owned by this object.
 *
 * <p>Threads: {@link #start()}, the transitions and {@link #close()} come one at a time from the store
 * (they are synchronized anyway); {@link #appended} from writer threads at any time. None blocks on the
 * network.
 */
final class PullReplicationStrategy implements ReplicationStrategy {

    private static final Logger LOG = LoggerFactory.getLogger(PullReplicationStrategy.class);

    private final PullConfig config;
    private final ReplicationContext context;
    private MultiThreadIoEventLoopGroup group;
    private volatile HaServer server;
    private MasterFollower follower;
    private boolean started;
    private boolean closed;

    PullReplicationStrategy(PullConfig config, ReplicationContext context) {
        this.config = Objects.requireNonNull(config, "config");
        this.context = Objects.requireNonNull(context, "context");
    }

    @Override
    public String name() {
        return PullReplicationStrategyProvider.NAME;
    }

    /**
     * Binds the HA port (refusing replicas until {@link #becomeMaster}); fails with an
     * {@link java.io.UncheckedIOException} naming the address when it cannot. Later calls are ignored.
     */
    @Override
    public synchronized void start() {
        if (started || closed) {
            return;
        }
        started = true;
        group = PullTransport.newGroup();
        try {
            TransportTls tls = context.plugin().tls().orElse(null);
            ReplicaProgress progress = new ReplicaLagGauges(context.progress(), context.log(), context.plugin().clock(),
                    context.plugin().metrics(), PullReplicationStrategyProvider.NAME);
            server = new HaServer(config, context.log(), progress, context.plugin().clock(), group, tls);
            follower = new MasterFollower(config, context.log(), context.plugin().clock(), group, tls);
        } catch (RuntimeException e) {
            shutdownGroup();
            throw e;
        }
    }

    @Override
    public synchronized void becomeMaster(int epoch) {
        requireStarted();
        follower.follow(null);
        server.serve(epoch);
    }

    /**
     * Refuses replicas and follows {@code masterHaAddress} (null: nobody yet).
     *
     * @throws org.modmq.api.config.ConfigException when the address is not {@code host:port}; nothing changed
     */
    @Override
    public synchronized void becomeReplica(int epoch, String masterHaAddress, long brokerId) {
        FollowTarget target = masterHaAddress == null ? null
                : new FollowTarget(PullConfig.parseAddress(masterHaAddress), epoch, brokerId);
        requireStarted();
        server.refuse();
        follower.follow(target);
    }

    private void requireStarted() {
        if (!started || closed) {
            throw new IllegalStateException("the pull replication strategy is " + (closed ? "closed" : "not started"));
        }
    }

    @Override
    public void appended(long endOffset) {
        HaServer current = server;
        if (current != null) {
            current.wake();
        }
    }

    /** The bound HA address (tests; a broker logs it). */
    InetSocketAddress listenAddress() {
        HaServer current = server;
        if (current == null) {
            throw new IllegalStateException("not started");
        }
        return current.address();
    }

    /** Master-side sessions connected now (tests). */
    int servedSessions() {
        HaServer current = server;
        return current == null ? 0 : current.sessionCount();
    }

    /** Connection attempts of the replica side so far (tests). */
    synchronized int followerDials() {
        return follower == null ? 0 : follower.dials();
    }

    /** The replica side's state (tests). */
    synchronized MasterFollower.State followerState() {
        return follower == null ? MasterFollower.State.IDLE : follower.state();
    }

    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        RuntimeException first = null;
        for (AutoCloseable part : new AutoCloseable[] {follower, server}) {
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
