import org.modmq.api.spi.replication.ReplicationStrategyProvider;
import org.modmq.ha.pull.PullReplicationStrategyProvider;

/**
 * The {@code pull} replication strategy: RocketMQ's HA protocols, in which a replica dials its master's HA
 * port and reports what it holds, and the master streams raw CommitLog bytes from there; every report is
 * an acknowledgement, passed to the store, which decides when a synchronous send is replicated.
 *
 * <ul>
 *   <li>Classic HA ({@code enableControllerMode} off): the slave reports its max offset as a bare int64,
 *       the master answers with {@code [offset][size][body]} frames; an empty slave gets the master's last
 *       CommitLog file.</li>
 *   <li>AutoSwitch HA ({@code enableControllerMode=true}), byte for byte RocketMQ 5's: a handshake in which
 *       the master sends its epoch history, the replica cuts a diverged tail back to where the histories
 *       agree, then transfer frames naming each body's epoch and the master's confirm offset.</li>
 * </ul>
 *
 * <p>The HA port is bound on every role; the store tells the strategy when to serve and whom to follow.
 * Runs on its own Netty event loop. Exports nothing; the store finds it with
 * {@link java.util.ServiceLoader} under the name {@code pull}.
 *
 * @provides ReplicationStrategyProvider
 */
module org.modmq.ha.pull {
    requires org.modmq.api;
    requires io.netty.buffer;
    requires io.netty.common;
    requires io.netty.transport;
    requires io.netty.codec;
    requires io.netty.handler;
    requires io.netty.transport.classes.epoll;
    requires io.netty.transport.unix.common;
    requires org.slf4j;

    provides ReplicationStrategyProvider with PullReplicationStrategyProvider;
}
