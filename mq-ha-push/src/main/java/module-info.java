import org.modmq.api.spi.replication.ReplicationStrategyProvider;
import org.modmq.ha.push.PushReplicationStrategyProvider;

/**
 * The {@code push} replication strategy: a master streams CommitLog bytes to each connected replica
 * the moment they are appended, within a window of unacknowledged bytes, and replicas acknowledge
 * asynchronously, so a synchronous master waits about one network round trip per send. Its own wire
 * protocol (version 2, see {@code wire.PushFrameLayout}) carries the broker id and the epoch histories
 * in the handshake, so a replica cuts a diverged tail at the consistent point before it takes a byte,
 * and every data frame names its epoch and the master's confirm offset. The store decides the role and
 * when a send is replicated; this plugin serves, follows and reports acknowledgements. Exports
 * nothing; the store finds it with {@link java.util.ServiceLoader} under {@code haStrategy=push}.
 *
 * @provides ReplicationStrategyProvider
 */
module org.modmq.ha.push {
    requires org.modmq.api;
    requires io.netty.buffer;
    requires io.netty.common;
    requires io.netty.transport;
    requires io.netty.codec;
    requires io.netty.handler;
    requires io.netty.transport.classes.epoll;
    requires io.netty.transport.unix.common;
    requires org.slf4j;

    provides ReplicationStrategyProvider with PushReplicationStrategyProvider;
}
