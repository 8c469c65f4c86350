package org.modmq.ha.push;

import java.net.InetSocketAddress;
import java.util.Objects;
import org.modmq.api.spi.TransportTls;
import org.modmq.api.spi.replication.ReplicaLagGauges;
import org.modmq.api.spi.replication.ReplicationContext;
import org.modmq.api.spi.replication.ReplicationStrategy;
import org.modmq.ha.push.config.PushConfig;
import org.modmq.ha.push.master.PushMaster;
import org.modmq.ha.push.replica.MasterFollower;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The push strategy for one broker: a {@link PushMaster} that listens on the HA port in every role and
 * serves replicas while the store is master, and a {@link MasterFollower} that follows the master the
 * store names while it is a replica. The store decides the role; this class only applies it.
 *
 * <p>Threads: thread-safe. {@link #start()}, the transitions and {@link #close()} come from the store
 * one at a time (synchronized here as well); {@link #appended} may come from any writer thread at any
 * time and only queues send passes. {@link #close()} is idempotent.
 */
final class PushReplicationStrategy implements ReplicationStrategy {

    private static final Logger LOG = LoggerFactory.getLogger(PushReplicationStrategy.class);

    private final PushMaster master;
    private final MasterFollower follower;

    PushReplicationStrategy(PushConfig config, ReplicationContext context) {
        Objects.requireNonNull(config, "config");
        Objects.requireNonNull(context, "context");
        TransportTls tls = context.plugin().tls().orElse(null);
        this.master = new PushMaster(config, context.log(), new ReplicaLagGauges(context.progress(), context.log(),
                context.plugin().clock(), context.plugin().metrics(), PushReplicationStrategyProvider.NAME), context.plugin().clock(),
                tls);
        this.follower = new MasterFollower(config, context.log(), context.plugin().clock(), tls);
    }

    @Override
    public String name() {
        return PushReplicationStrategyProvider.NAME;
    }

    @Override
    public synchronized void start() {
        master.start();
    }

    @Override
    public synchronized void becomeMaster(int epoch) {
        follower.follow(epoch, null, -1);
        master.serve(epoch);
        LOG.info("push strategy: master of epoch {}", epoch);
    }

    @Override
    public synchronized void becomeReplica(int epoch, String masterHaAddress, long brokerId) {
        if (masterHaAddress != null) {
            PushConfig.parseAddress(masterHaAddress);
        }
        master.stopServing();
        follower.follow(epoch, masterHaAddress, brokerId);
        LOG.info("push strategy: replica in epoch {} following {} as broker {}", epoch, masterHaAddress, brokerId);
    }

    /** An unordered hint: each streaming replica is sent up to the log's end as it is when its pass runs. */
    @Override
    public void appended(long endOffset) {
        master.appended();
    }

    /** The bound HA address (the real port when {@code haListenPort=0}); null before {@link #start()}. */
    InetSocketAddress listenAddress() {
        return master.localAddress();
    }

    /** The follower's state ({@link MasterFollower.State#IDLE} while master). */
    MasterFollower.State followerState() {
        return follower.state();
    }

    @Override
    public synchronized void close() {
        RuntimeException failure = null;
        try {
            follower.close();
        } catch (RuntimeException e) {
            failure = e;
        }
        try {
            master.close();
        } catch (RuntimeException e) {
            if (failure == null) {
                failure = e;
            } else {
                failure.addSuppressed(e);
            }
        }
        if (failure != null) {
            throw failure;
        }
    }
}
