package org.modmq.controller.state;

import java.util.Collections;
import java.util.Objects;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;
import org.modmq.remoting.protocol.ResponseCode;

/**
 * The whole replicated controller state: every broker set by name. Immutable; {@link #apply} returns the
 * next state, so readers on any thread see a consistent view by holding one instance.
 *
 * @param brokerSets broker name to its metadata
 */
public record ControllerState(SortedMap<String, BrokerSetState> brokerSets) {

    /** No broker sets. */
    public static final ControllerState EMPTY = new ControllerState(new TreeMap<>());

    /** Copies the table into an unmodifiable sorted map. */
    public ControllerState {
        brokerSets = Collections.unmodifiableSortedMap(new TreeMap<>(brokerSets == null ? Collections.emptySortedMap() : brokerSets));
    }

    /** @return the broker set, if known */
    public Optional<BrokerSetState> brokerSet(String brokerName) {
        return Optional.ofNullable(brokerSets.get(brokerName));
    }

    /**
     * Applies one event. Deterministic: the same state and event give the same result on every peer.
     *
     * @return the next state (this one when the event was refused) and what happened
     */
    public Applied apply(ControllerEvent event) {
        Objects.requireNonNull(event, "event");
        if (event instanceof ControllerEvent.ApplyBrokerId e) {
            return applyBrokerId(e);
        } else if (event instanceof ControllerEvent.UpdateBrokerAddress e) {
            return updateAddress(e);
        } else if (event instanceof ControllerEvent.ElectMaster e) {
            return electMaster(e);
        } else if (event instanceof ControllerEvent.AlterSyncStateSet e) {
            return alterSyncStateSet(e);
        } else if (event instanceof ControllerEvent.CleanBrokerData e) {
            return clean(e);
        }
        return new Applied(this, EventResult.APPLIED);
    }

    private Applied applyBrokerId(ControllerEvent.ApplyBrokerId e) {
        BrokerSetState set = brokerSets.get(e.brokerName());
        Replica replica = new Replica(e.brokerId(), e.address(), e.registerCheckCode());
        if (set == null) {
            if (e.brokerId() != BrokerSetState.FIRST_BROKER_ID) {
                return refused(ResponseCode.CONTROLLER_BROKER_ID_INVALID, "Broker-set: " + e.brokerName()
                        + " hasn't been registered in controller, but broker try to apply brokerId: " + e.brokerId());
            }
            return with(BrokerSetState.first(e.clusterName(), e.brokerName(), replica));
        }
        Replica holder = set.replicas().get(e.brokerId());
        if (holder == null) {
            return with(set.withReplica(replica));
        }
        if (holder.registerCheckCode().equals(e.registerCheckCode())) {
            return new Applied(this, EventResult.APPLIED);
        }
        return refused(ResponseCode.CONTROLLER_BROKER_ID_INVALID,
                "Fail to apply brokerId: " + e.brokerId() + " in broker-set: " + e.brokerName());
    }

    private Applied updateAddress(ControllerEvent.UpdateBrokerAddress e) {
        BrokerSetState set = brokerSets.get(e.brokerName());
        if (set == null || !set.hasReplica(e.brokerId())) {
            return refused(ResponseCode.CONTROLLER_BROKER_METADATA_NOT_EXIST,
                    "BrokerId: " + e.brokerId() + " is not registered in broker-set: " + e.brokerName());
        }
        return with(set.withAddress(e.brokerId(), e.address()));
    }

    private Applied electMaster(ControllerEvent.ElectMaster e) {
        BrokerSetState set = brokerSets.get(e.brokerName());
        if (set == null) {
            return refused(ResponseCode.CONTROLLER_BROKER_NEED_TO_BE_REGISTERED, "Broker hasn't been registered");
        }
        if (set.masterEpoch() != e.expectedMasterEpoch()) {
            return refused(ResponseCode.CONTROLLER_FENCED_MASTER_EPOCH, "the master epoch of " + e.brokerName() + " is "
                    + set.masterEpoch() + ", the election was decided at " + e.expectedMasterEpoch());
        }
        if (set.syncStateSetEpoch() != e.expectedSyncStateSetEpoch()) {
            return refused(ResponseCode.CONTROLLER_FENCED_SYNC_STATE_SET_EPOCH, "the syncStateSet epoch of "
                    + e.brokerName() + " is " + set.syncStateSetEpoch() + ", the election was decided at "
                    + e.expectedSyncStateSetEpoch());
        }
        if (e.newMasterBrokerId() != null && !set.hasReplica(e.newMasterBrokerId())) {
            return refused(ResponseCode.CONTROLLER_INVALID_REQUEST,
                    "broker " + e.newMasterBrokerId() + " is not registered in broker-set " + e.brokerName());
        }
        return with(set.withMaster(e.newMasterBrokerId()));
    }

    private Applied alterSyncStateSet(ControllerEvent.AlterSyncStateSet e) {
        BrokerSetState set = brokerSets.get(e.brokerName());
        Optional<EventResult> refusal = SyncStateSetCheck.refusal(set, e.masterBrokerId(), e.masterEpoch(),
                e.syncStateSetEpoch(), e.newSyncStateSet());
        if (refusal.isPresent()) {
            return new Applied(this, refusal.get());
        }
        return with(set.withSyncStateSet(e.newSyncStateSet()));
    }

    private Applied clean(ControllerEvent.CleanBrokerData e) {
        BrokerSetState set = brokerSets.get(e.brokerName());
        if (set == null) {
            return refused(ResponseCode.CONTROLLER_INVALID_CLEAN_BROKER_METADATA,
                    "Broker " + e.brokerName() + " is not existed,clean broker data failure.");
        }
        TreeMap<String, BrokerSetState> copy = new TreeMap<>(brokerSets);
        BrokerSetState left = e.brokerIds().isEmpty() ? null : set.withoutReplicas(e.brokerIds());
        if (left != null && left.masterBrokerId() != null && !left.hasReplica(left.masterBrokerId())) {
            left = left.withMaster(null);
        }
        if (left == null || left.replicas().isEmpty()) {
            copy.remove(e.brokerName());
        } else {
            copy.put(e.brokerName(), left);
        }
        return new Applied(new ControllerState(copy), EventResult.APPLIED);
    }

    private Applied with(BrokerSetState set) {
        TreeMap<String, BrokerSetState> copy = new TreeMap<>(brokerSets);
        copy.put(set.brokerName(), set);
        return new Applied(new ControllerState(copy), EventResult.APPLIED);
    }

    private Applied refused(int code, String remark) {
        return new Applied(this, EventResult.refused(code, remark));
    }

    /**
     * The outcome of {@link #apply}.
     *
     * @param state  the next state
     * @param result what happened
     */
    public record Applied(ControllerState state, EventResult result) {
    }
}
