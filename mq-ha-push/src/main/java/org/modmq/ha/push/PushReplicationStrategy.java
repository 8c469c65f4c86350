package org.modmq.ha.push;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.modmq.api.message.PutStatus;
import org.modmq.api.message.PutStatusException;
import org.modmq.api.spi.replication.ReplicaState;
import org.modmq.api.spi.replication.ReplicationContext;
import org.modmq.api.spi.replication.ReplicationStrategy;
import org.modmq.ha.push.config.PushConfig;
import org.modmq.ha.push.master.PushMaster;
import org.modmq.ha.push.replica.MasterFollower;

/**
 * The push strategy for one broker: a {@link PushMaster} on master roles, a {@link MasterFollower} on a
 * slave. Thread-safe; {@link #close()} is idempotent.
 */
final class PushReplicationStrategy implements ReplicationStrategy {

    private final PushConfig config;
    private final ReplicationContext context;
    private final PushMaster master;
    private final MasterFollower follower;

    PushReplicationStrategy(PushConfig config, ReplicationContext context) {
        this.config = config;
        this.context = context;
        boolean isMaster = context.role().isMaster();
        this.master = isMaster ? new PushMaster(config, context.log(), context.plugin()) : null;
        this.follower = isMaster ? null : new MasterFollower(config, context.log(), context.plugin());
    }

    @Override
    public String name() {
        return PushReplicationStrategyProvider.NAME;
    }

    @Override
    public void start() {
        if (master != null) {
            master.start();
        } else {
            config.masterAddress().ifPresent(follower::follow);
        }
    }

    @Override
    public void appended(long endOffset) {
        if (master != null) {
            master.appended(endOffset);
        }
    }

    @Override
    public CompletableFuture<Void> awaitReplicated(long offset, Duration timeout) {
        if (master == null) {
            return CompletableFuture.failedFuture(new PutStatusException(PutStatus.SLAVE_NOT_AVAILABLE,
                    "brokerRole=" + context.role() + " does not serve replicas"));
        }
        return master.awaitReplicated(offset, timeout);
    }

    @Override
    public List<ReplicaState> replicas() {
        return master == null ? List.of() : master.replicas();
    }

    /**
     * @throws IllegalStateException on a master role: a master appending replicated bytes next to its
     *     own writes would corrupt its log
     */
    @Override
    public void followMaster(String haAddress) {
        if (follower == null) {
            throw new IllegalStateException("followMaster needs brokerRole=SLAVE, this broker is "
                    + context.role());
        }
        follower.follow(haAddress);
    }

    /** Master: the bound HA address (the real port when {@code haListenPort=0}); null otherwise. */
    InetSocketAddress listenAddress() {
        return master == null ? null : master.localAddress();
    }

    /** Replica: the follower's state; null on a master. */
    MasterFollower.State followerState() {
        return follower == null ? null : follower.state();
    }

    @Override
    public void close() {
        if (master != null) {
            master.close();
        }
        if (follower != null) {
            follower.close();
        }
    }
}
