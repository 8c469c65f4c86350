package org.modmq.broker.controller;

import java.time.Duration;
import java.util.Objects;
import java.util.function.Consumer;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import org.modmq.broker.controller.ControllerClient.HeartbeatFields;
import org.modmq.remoting.protocol.RemotingCommand;
import org.modmq.remoting.protocol.ResponseCode;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * BROKER_HEARTBEAT (904) to every controller, sent as a two-way request so the leader's answer renews the
 * {@link WriteLease}. A modmq controller marks its answers {@code isLeader} and adds the set's master; a
 * stock controller's answer counts as the leader's when it came from the address
 * CONTROLLER_GET_METADATA_INFO named. An answer naming another master of a newer epoch renews nothing:
 * it is handed on as a role change.
 *
 * <p>Threading: {@link #beat()} from the agent's timer; answers on remoting threads. Thread-safe.
 */
final class ControllerHeartbeats {

    private static final Logger LOG = LoggerFactory.getLogger(ControllerHeartbeats.class);

    private final ControllerClient controllers;
    private final WriteLease lease;
    private final Supplier<HeartbeatFields> fields;
    private final LongSupplier currentEpoch;
    private final Duration sendTimeout;
    private final Consumer<ReplicaView> newerMaster;
    private volatile boolean failing;

    ControllerHeartbeats(ControllerClient controllers, WriteLease lease, Supplier<HeartbeatFields> fields,
                         LongSupplier currentEpoch, Duration sendTimeout, Consumer<ReplicaView> newerMaster) {
        this.controllers = Objects.requireNonNull(controllers, "controllers");
        this.lease = Objects.requireNonNull(lease, "lease");
        this.fields = Objects.requireNonNull(fields, "fields");
        this.currentEpoch = Objects.requireNonNull(currentEpoch, "currentEpoch");
        this.sendTimeout = Objects.requireNonNull(sendTimeout, "sendTimeout");
        this.newerMaster = Objects.requireNonNull(newerMaster, "newerMaster");
    }

    /** Sends one heartbeat to every controller. */
    void beat() {
        HeartbeatFields beat = fields.get();
        long sentAt = lease.now();
        for (String address : controllers.controllers()) {
            controllers.heartbeat(address, beat, sendTimeout).whenComplete((answer, error) -> {
                if (error != null) {
                    if (address.equals(controllers.leader()) && !failing) {
                        failing = true;
                        LOG.warn("heartbeat to controller leader {} failed: {}", address, error.toString());
                    }
                    return;
                }
                onAnswer(address, sentAt, beat.brokerId(), answer);
            });
        }
    }

    private void onAnswer(String address, long sentAt, long brokerId, RemotingCommand answer) {
        if (answer.code() != ResponseCode.SUCCESS) {
            return;
        }
        String isLeader = answer.extField("isLeader");
        boolean fromLeader = isLeader != null ? Boolean.parseBoolean(isLeader) : address.equals(controllers.leader());
        if (!fromLeader) {
            return;
        }
        controllers.leaderIs(address);
        if (failing) {
            failing = false;
            LOG.info("heartbeats to controller leader {} answered again", address);
        }
        ReplicaView view = answer.extField("masterEpoch") == null ? null : ControllerClient.view(answer);
        if (view != null && view.masterEpoch() > currentEpoch.getAsLong()) {
            newerMaster.accept(view);
            if (view.hasMaster() && view.masterBrokerId() != brokerId) {
                return;
            }
        }
        lease.renew(sentAt);
    }

    /** A remoting connection closed: losing the leader's ends the lease at once. */
    void connectionClosed(String address) {
        if (address.equals(controllers.leader())) {
            lease.revoke("the connection to the controller leader " + address + " closed");
        }
    }
}
