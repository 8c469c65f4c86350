package org.modmq.controller.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import org.modmq.controller.state.BrokerSetState;
import org.modmq.controller.state.ControllerEvent;

/** The leader's open connections to live replicas, which an election's notice then finds ready. */
class RoleChangeNotifierTest {

    private final MemoryEventLog log = new MemoryEventLog();
    private final List<String> connects = new ArrayList<>();
    private final Set<String> unreachable = new java.util.HashSet<>();

    /** Stands for a broker's heartbeat connection; never written to here. */
    private static final org.modmq.remoting.netty.RemotingChannel HEARTBEAT_CONNECTION =
            new org.modmq.remoting.netty.RemotingChannel() {
                public String id() { return "hb"; }
                public java.net.InetSocketAddress remoteAddress() { return null; }
                public java.net.InetSocketAddress localAddress() { return null; }
                public String remoteAddressText() { return "127.0.0.1:1"; }
                public boolean isActive() { return true; }
                public CompletableFuture<Void> sendOneway(org.modmq.remoting.protocol.RemotingCommand request) {
                    throw new AssertionError("not used");
                }
                public CompletableFuture<org.modmq.remoting.protocol.RemotingCommand> invoke(
                        org.modmq.remoting.protocol.RemotingCommand request, java.time.Duration timeout) {
                    throw new AssertionError("not used");
                }
                public void close() { }
            };

    /** Broker ids that take notices on their own heartbeat connection. */
    private final Set<Long> onConnection = new java.util.HashSet<>();

    private RoleChangeNotifier notifier(boolean notify) {
        return new RoleChangeNotifier(new RuntimeSettings(false, notify, 100, 3), (change, id) -> true,
                (address, request) -> CompletableFuture.completedFuture(null),
                address -> {
                    connects.add(address);
                    return unreachable.contains(address)
                            ? CompletableFuture.failedFuture(new IllegalStateException("refused"))
                            : CompletableFuture.completedFuture(address);
                }, key -> onConnection.contains(key.brokerId())
                        ? java.util.Optional.of(HEARTBEAT_CONNECTION)
                        : java.util.Optional.empty());
    }

    private Iterable<BrokerSetState> sets() {
        return log.state().brokerSets().values();
    }

    @Test
    void connectsToLiveReplicasOnlyAndPausesAfterAFailedConnect() {
        log.submit(new ControllerEvent.ApplyBrokerId("c", "broker-a", 1, "127.0.0.1:10911", "a;1"));
        log.submit(new ControllerEvent.ApplyBrokerId("c", "broker-a", 2, "127.0.0.1:10921", "b;2"));
        log.submit(new ControllerEvent.ApplyBrokerId("c", "broker-a", 3, "127.0.0.1:10931", "c;3"));
        unreachable.add("127.0.0.1:10921");
        RoleChangeNotifier notifier = notifier(true);

        notifier.keepConnected(sets(), (set, id) -> id != 3);
        assertThat(connects).containsExactlyInAnyOrder("127.0.0.1:10911", "127.0.0.1:10921");
        connects.clear();
        notifier.keepConnected(sets(), (set, id) -> id != 3);
        assertThat(connects).as("the unreachable one waits before it is tried again").containsExactly("127.0.0.1:10911");
    }

    @Test
    void dialsNoBrokerThatTakesNoticesOnItsHeartbeatConnection() {
        log.submit(new ControllerEvent.ApplyBrokerId("c", "broker-a", 1, "127.0.0.1:10911", "a;1"));
        log.submit(new ControllerEvent.ApplyBrokerId("c", "broker-a", 2, "127.0.0.1:10921", "b;2"));
        onConnection.add(1L);
        notifier(true).keepConnected(sets(), (set, id) -> true);
        assertThat(connects).containsExactly("127.0.0.1:10921");
    }

    @Test
    void opensNothingWhenNoticesAreOff() {
        log.submit(new ControllerEvent.ApplyBrokerId("c", "broker-a", 1, "127.0.0.1:10911", "a;1"));
        notifier(false).keepConnected(sets(), (set, id) -> true);
        assertThat(connects).isEmpty();
    }
}
