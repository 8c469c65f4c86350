import org.modmq.api.spi.replication.ReplicationStrategyProvider;
import org.modmq.ha.pull.PullReplicationStrategyProvider;

/**
 * The {@code pull} replication strategy: RocketMQ's classic master/slave HA protocol. A slave dials the
 * master's HA port and reports its CommitLog max offset as a bare int64; the master streams raw
 * CommitLog bytes from there in {@code [offset][size][body]} frames, and every report doubles as the
 * slave's acknowledgement that synchronous replication waits on. Runs on its own Netty event loop.
 * Exports nothing; the broker finds it with {@link java.util.ServiceLoader} under the name {@code pull}.
 *
 * @provides ReplicationStrategyProvider
 */
module org.modmq.ha.pull {
    requires org.modmq.api;
    requires io.netty.buffer;
    requires io.netty.common;
    requires io.netty.transport;
    requires io.netty.codec;
    requires org.slf4j;

    provides ReplicationStrategyProvider with PullReplicationStrategyProvider;
}
