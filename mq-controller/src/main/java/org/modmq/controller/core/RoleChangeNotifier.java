package org.modmq.controller.core;

import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.function.BiFunction;
import java.util.function.BiPredicate;
import java.util.function.Consumer;
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
 * Sent only while {@code notifyBrokerRoleChanged} is on. Thread-safe; never blocks.
 */
public final class RoleChangeNotifier implements Consumer<RoleChange> {

    private static final Logger LOG = LoggerFactory.getLogger(RoleChangeNotifier.class);

    private final RuntimeSettings settings;
    private final BiPredicate<RoleChange, Long> alive;
    private final BiFunction<String, RemotingCommand, CompletableFuture<Void>> oneway;

    /**
     * @param settings whether to notify
     * @param alive    whether replica id of the change's broker set is alive
     * @param oneway   sends a one-way request to an address
     */
    public RoleChangeNotifier(RuntimeSettings settings, BiPredicate<RoleChange, Long> alive,
                              BiFunction<String, RemotingCommand, CompletableFuture<Void>> oneway) {
        this.settings = Objects.requireNonNull(settings, "settings");
        this.alive = Objects.requireNonNull(alive, "alive");
        this.oneway = Objects.requireNonNull(oneway, "oneway");
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
            RemotingCommand request = RemotingCommand.request(RequestCode.NOTIFY_BROKER_ROLE_CHANGED)
                    .putExtField("masterAddress", change.masterAddress())
                    .putExtField("masterEpoch", change.masterEpoch())
                    .putExtField("syncStateSetEpoch", change.syncStateSetEpoch())
                    .putExtField("masterBrokerId", change.masterBrokerId())
                    .withBody(body);
            oneway.apply(address, request).whenComplete((sent, error) -> {
                if (error != null) {
                    LOG.warn("cannot notify {} (broker {} of {}) of master {} at epoch {}: {}", address, id,
                            change.brokerName(), change.masterBrokerId(), change.masterEpoch(), error.toString());
                } else {
                    LOG.debug("notified {} of master {} at epoch {}", address, change.masterBrokerId(), change.masterEpoch());
                }
            });
        });
    }
}
