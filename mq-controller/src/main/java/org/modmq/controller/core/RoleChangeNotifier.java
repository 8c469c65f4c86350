package org.modmq.controller.core;

import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.function.BiFunction;
import java.util.function.BiPredicate;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.Optional;
import org.modmq.remoting.netty.RemotingChannel;
import org.modmq.controller.liveness.BrokerKey;
import org.modmq.controller.state.BrokerSetState;
import org.modmq.controller.body.SyncStateSet;
import org.modmq.remoting.protocol.Json;
import org.modmq.remoting.protocol.RemotingCommand;
import org.modmq.remoting.protocol.RequestCode;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Pushes a new master to the broker set's live replicas: {@code NOTIFY_BROKER_ROLE_CHANGED} (1008),
 * one-way, header {@code NotifyBrokerRoleChangedRequestHeader} ({@code masterAddress},
 * {@code masterEpoch}, {@code syncStateSetEpoch}, {@code masterBrokerId}), body {@code SyncStateSet}.
 * Replicas that miss it learn the same from {@code CONTROLLER_GET_REPLICA_INFO}, which they poll.
 * Sent only while {@code notifyBrokerRoleChanged} is on. The leader keeps a connection open to every
 * live replica ({@link #keepConnected}), so that a notice after an election does not wait for a
 * connect. Thread-safe; never blocks.
 */
public final class RoleChangeNotifier implements Consumer<RoleChange> {

    private static final Logger LOG = LoggerFactory.getLogger(RoleChangeNotifier.class);

    private final RuntimeSettings settings;
    private final BiPredicate<RoleChange, Long> alive;
    private final BiFunction<String, RemotingCommand, CompletableFuture<Void>> oneway;
    private final Function<String, CompletableFuture<?>> connect;
    private final Function<BrokerKey, Optional<RemotingChannel>> brokerConnection;
    /** Addresses whose last connect failed, and when: tried again only after a pause, not every scan. */
    private final java.util.Map<String, Long> failedAt = new java.util.concurrent.ConcurrentHashMap<>();
    private static final long RECONNECT_AFTER_FAILURE_NANOS = 5_000_000_000L;

    /**
     * @param settings whether to notify
     * @param alive    whether replica id of the change's broker set is alive
     * @param oneway   sends a one-way request to an address
     * @param connect  opens (or returns the open) connection to an address
     * @param brokerConnection the connection replica id's heartbeats come on, when its broker (modmq) takes
     *                 notices there: a notice on it needs no connect and no confirmation
     */
    public RoleChangeNotifier(RuntimeSettings settings, BiPredicate<RoleChange, Long> alive,
                              BiFunction<String, RemotingCommand, CompletableFuture<Void>> oneway,
                              Function<String, CompletableFuture<?>> connect,
                              Function<BrokerKey, Optional<RemotingChannel>> brokerConnection) {
        this.settings = Objects.requireNonNull(settings, "settings");
        this.alive = Objects.requireNonNull(alive, "alive");
        this.oneway = Objects.requireNonNull(oneway, "oneway");
        this.connect = Objects.requireNonNull(connect, "connect");
        this.brokerConnection = Objects.requireNonNull(brokerConnection, "brokerConnection");
    }

    /**
     * Opens a connection to each live replica of {@code sets} that has none (a cached one costs a map
     * lookup) and takes no notices on its own heartbeat connection; failures are left to the next call
     * or to the notice itself.
     *
     * @param sets  the broker sets
     * @param alive whether replica id of a set is alive
     */
    public void keepConnected(Iterable<BrokerSetState> sets, BiPredicate<BrokerSetState, Long> alive) {
        if (!settings.notifyBrokerRoleChanged()) {
            return;
        }
        long now = System.nanoTime();
        for (BrokerSetState set : sets) {
            set.replicas().forEach((id, replica) -> {
                String address = replica.address();
                Long failed = failedAt.get(address);
                if (!alive.test(set, id) || failed != null && now - failed < RECONNECT_AFTER_FAILURE_NANOS
                        || brokerConnection.apply(new BrokerKey(set.clusterName(), set.brokerName(), id)).isPresent()) {
                    return;
                }
                connect.apply(address).whenComplete((channel, error) -> {
                    if (error != null) {
                        failedAt.put(address, System.nanoTime());
                    } else {
                        failedAt.remove(address);
                    }
                });
            });
        }
    }

    @Override
    public void accept(RoleChange change) {
        if (!settings.notifyBrokerRoleChanged()) {
            return;
        }
        byte[] body = Json.encode(SyncStateSet.of(change.syncStateSet(), change.syncStateSetEpoch()));
        // The new master first: it is the one whose registration the clients wait for.
        java.util.List<java.util.Map.Entry<Long, String>> order = new java.util.ArrayList<>(change.replicas().entrySet());
        order.sort(java.util.Comparator.comparing(entry -> entry.getKey() != change.masterBrokerId()));
        order.forEach(entry -> {
            long id = entry.getKey();
            String address = entry.getValue();
            if (!alive.test(change, id)) {
                return;
            }
            Optional<RemotingChannel> connection = brokerConnection.apply(
                    new BrokerKey(change.clusterName(), change.brokerName(), id));
            if (connection.isPresent()) {
                connection.get().sendOneway(notice(change, body)).whenComplete((sent, error) -> {
                    if (error != null) {
                        LOG.debug("notice to broker {} on its connection failed ({}); to its port instead", id, error.toString());
                        toAddress(change, body, id, address);
                    }
                });
            } else {
                toAddress(change, body, id, address);
            }
        });
    }

    private static RemotingCommand notice(RoleChange change, byte[] body) {
        return RemotingCommand.request(RequestCode.NOTIFY_BROKER_ROLE_CHANGED)
                .putExtField("masterAddress", change.masterAddress())
                .putExtField("masterEpoch", change.masterEpoch())
                .putExtField("syncStateSetEpoch", change.syncStateSetEpoch())
                .putExtField("masterBrokerId", change.masterBrokerId())
                .withBody(body);
    }

    private void toAddress(RoleChange change, byte[] body, long id, String address) {
        oneway.apply(address, notice(change, body)).whenComplete((sent, error) -> {
            if (error != null) {
                LOG.warn("cannot notify {} (broker {} of {}) of master {} at epoch {}: {}", address, id,
                        change.brokerName(), change.masterBrokerId(), change.masterEpoch(), error.toString());
            } else {
                LOG.debug("notified {} of master {} at epoch {}", address, change.masterBrokerId(), change.masterEpoch());
            }
        });
    }
}
