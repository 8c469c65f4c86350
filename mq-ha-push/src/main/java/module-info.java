import org.modmq.api.spi.replication.ReplicationStrategyProvider;
import org.modmq.ha.push.PushReplicationStrategyProvider;

/**
 * The {@code push} replication strategy: a master streams CommitLog bytes to each connected replica
 * the moment they are appended, within a window of unacknowledged bytes, and replicas acknowledge
 * asynchronously, so a synchronous master waits about one network round trip per send. Exports
 * nothing; the broker finds it with {@link java.util.ServiceLoader} under {@code haStrategy=push}.
 *
 * @provides ReplicationStrategyProvider
 */
module org.modmq.ha.push {
    requires org.modmq.api;
    requires io.netty.buffer;
    requires io.netty.common;
    requires io.netty.transport;
    requires io.netty.codec;
    requires io.netty.transport.classes.epoll;
    requires io.netty.transport.unix.common;
    requires org.slf4j;

    provides ReplicationStrategyProvider with PushReplicationStrategyProvider;
}
