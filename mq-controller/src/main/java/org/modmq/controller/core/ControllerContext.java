package org.modmq.controller.core;

import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;
import org.modmq.controller.liveness.BrokerKey;
import org.modmq.controller.liveness.BrokerLiveness;
import org.modmq.controller.state.BrokerSetState;
import org.modmq.controller.state.ControllerState;

/**
 * What the request handlers share: the replicated log, node-local liveness, the leader gate, the write
 * sequencer and the runtime settings. Immutable holder; every part is thread-safe.
 *
 * @param log       the replicated log and its state
 * @param liveness  node-local broker liveness
 * @param gate      admits leader-only requests
 * @param sequencer orders writes
 * @param settings  runtime-changeable settings
 */
public record ControllerContext(EventLog log, BrokerLiveness liveness, LeaderGate gate, WriteSequencer sequencer,
                                RuntimeSettings settings) {

    public ControllerContext {
        Objects.requireNonNull(log, "log");
        Objects.requireNonNull(liveness, "liveness");
        Objects.requireNonNull(gate, "gate");
        Objects.requireNonNull(sequencer, "sequencer");
        Objects.requireNonNull(settings, "settings");
    }

    /**
     * @return the applied state, after checking that this peer may serve leader-only requests
     * @throws LeaderGate.NotLeaderException when it may not
     */
    public ControllerState leaderState() {
        gate.admit(log.leadership());
        return log.state();
    }

    /**
     * Runs a write in order after every earlier one, checking leadership again when its turn comes.
     *
     * @param write decides and proposes, given the state at its turn
     */
    public <T> CompletableFuture<T> write(Function<ControllerState, CompletableFuture<T>> write) {
        return sequencer.run(() -> {
            try {
                return write.apply(leaderState());
            } catch (RuntimeException e) {
                return CompletableFuture.failedFuture(e);
            }
        });
    }

    /** @return whether replica {@code brokerId} of {@code set} is alive for this peer */
    public boolean alive(BrokerSetState set, long brokerId) {
        return liveness.isActive(new BrokerKey(set.clusterName(), set.brokerName(), brokerId));
    }

    /** @return the longest heartbeat timeout replica {@code brokerId} of {@code set} named to this peer */
    public java.util.OptionalLong declaredTimeout(BrokerSetState set, long brokerId) {
        return liveness.declaredTimeout(new BrokerKey(set.clusterName(), set.brokerName(), brokerId));
    }

    /** @return what this peer last heard from replica {@code brokerId} of {@code set} */
    public Optional<org.modmq.controller.liveness.LiveBroker> live(BrokerSetState set, long brokerId) {
        return liveness.get(new BrokerKey(set.clusterName(), set.brokerName(), brokerId));
    }
}
