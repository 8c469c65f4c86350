package org.modmq.controller.state;

import com.fasterxml.jackson.annotation.JsonSubTypes;
import com.fasterxml.jackson.annotation.JsonTypeInfo;
import java.util.Objects;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeSet;

/**
 * One write to the replicated controller state: the content of one Raft log entry. Every event is
 * applied by {@link ControllerState#apply} the same way on every peer; the checks that depend only on
 * the state (ids, epochs) are made again there, so that an event decided on a state that has moved on
 * since is refused rather than applied twice or out of order. Liveness, which is not replicated, is
 * checked by the leader before it proposes.
 */
@JsonTypeInfo(use = JsonTypeInfo.Id.NAME, property = "type")
@JsonSubTypes({
        @JsonSubTypes.Type(value = ControllerEvent.ApplyBrokerId.class, name = "applyBrokerId"),
        @JsonSubTypes.Type(value = ControllerEvent.UpdateBrokerAddress.class, name = "updateBrokerAddress"),
        @JsonSubTypes.Type(value = ControllerEvent.ElectMaster.class, name = "electMaster"),
        @JsonSubTypes.Type(value = ControllerEvent.AlterSyncStateSet.class, name = "alterSyncStateSet"),
        @JsonSubTypes.Type(value = ControllerEvent.CleanBrokerData.class, name = "cleanBrokerData"),
        @JsonSubTypes.Type(value = ControllerEvent.Barrier.class, name = "barrier")
})
public sealed interface ControllerEvent {

    /** @return the broker set the event is about, or null for a barrier */
    String brokerName();

    /**
     * A broker takes an id ({@code CONTROLLER_APPLY_BROKER_ID}).
     *
     * @param clusterName       its cluster
     * @param brokerName        its broker set
     * @param brokerId          the id it applies for
     * @param address           its address (the first part of the check code)
     * @param registerCheckCode {@code address;timestamp}
     */
    record ApplyBrokerId(String clusterName, String brokerName, long brokerId, String address, String registerCheckCode)
            implements ControllerEvent {
        public ApplyBrokerId {
            Objects.requireNonNull(clusterName, "clusterName");
            Objects.requireNonNull(brokerName, "brokerName");
            Objects.requireNonNull(address, "address");
            Objects.requireNonNull(registerCheckCode, "registerCheckCode");
        }
    }

    /**
     * A registered replica now listens elsewhere ({@code CONTROLLER_REGISTER_BROKER} with a new address).
     *
     * @param brokerName its broker set
     * @param brokerId   its id
     * @param address    the new address
     */
    record UpdateBrokerAddress(String brokerName, long brokerId, String address) implements ControllerEvent {
        public UpdateBrokerAddress {
            Objects.requireNonNull(brokerName, "brokerName");
            Objects.requireNonNull(address, "address");
        }
    }

    /**
     * The outcome of an election, fenced by the epochs it was decided on.
     *
     * @param brokerName                the broker set
     * @param newMasterBrokerId         the new master, or null: the old master is gone and nobody took over
     * @param expectedMasterEpoch       the master epoch the decision saw
     * @param expectedSyncStateSetEpoch the sync-state set epoch the decision saw
     */
    record ElectMaster(String brokerName, Long newMasterBrokerId, int expectedMasterEpoch, int expectedSyncStateSetEpoch)
            implements ControllerEvent {
        public ElectMaster {
            Objects.requireNonNull(brokerName, "brokerName");
        }
    }

    /**
     * The master changes its sync-state set ({@code CONTROLLER_ALTER_SYNC_STATE_SET}).
     *
     * @param brokerName        the broker set
     * @param masterBrokerId    the requesting master
     * @param masterEpoch       its master epoch
     * @param syncStateSetEpoch the sync-state set epoch it changes from
     * @param newSyncStateSet   the new set
     */
    record AlterSyncStateSet(String brokerName, long masterBrokerId, int masterEpoch, int syncStateSetEpoch,
                             SortedSet<Long> newSyncStateSet) implements ControllerEvent {
        public AlterSyncStateSet {
            Objects.requireNonNull(brokerName, "brokerName");
            newSyncStateSet = new TreeSet<>(Objects.requireNonNull(newSyncStateSet, "newSyncStateSet"));
        }
    }

    /**
     * Forget a broker set, or some of its replicas ({@code CLEAN_BROKER_DATA}).
     *
     * @param brokerName the broker set
     * @param brokerIds  the replicas to forget; empty forgets the whole set
     */
    record CleanBrokerData(String brokerName, SortedSet<Long> brokerIds) implements ControllerEvent {
        public CleanBrokerData {
            Objects.requireNonNull(brokerName, "brokerName");
            brokerIds = brokerIds == null ? new TreeSet<>() : new TreeSet<>(brokerIds);
        }

        /** @return a clean of {@code ids} (empty: the whole set) */
        public static CleanBrokerData of(String brokerName, Set<Long> ids) {
            return new CleanBrokerData(brokerName, new TreeSet<>(ids));
        }
    }

    /**
     * Changes nothing. A new leader proposes one and serves only once it is applied, so that its state
     * holds every entry of earlier terms.
     *
     * @param term the leader's term, for the log
     */
    record Barrier(long term) implements ControllerEvent {
        @Override
        public String brokerName() {
            return null;
        }
    }
}
