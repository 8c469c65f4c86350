package org.modmq.controller.state;

import com.fasterxml.jackson.annotation.JsonIgnore;
import java.util.Collections;
import java.util.Objects;
import java.util.Set;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The replicated metadata of one broker set (RocketMQ's {@code BrokerReplicaInfo} and
 * {@code SyncStateInfo} together). Immutable; every change makes a copy.
 *
 * <p>Epochs: {@code masterEpoch} grows by one with every election event (also one that finds no new
 * master), {@code syncStateSetEpoch} with every change of the sync-state set (an election sets it to
 * the new master alone). Both start at 0; a set whose {@code masterEpoch} is 0 never had a master.
 *
 * @param clusterName       the cluster
 * @param brokerName        the broker set
 * @param nextBrokerId      the id {@code CONTROLLER_GET_NEXT_BROKER_ID} hands out
 * @param replicas          registered replicas by id
 * @param masterBrokerId    the master's id, or null
 * @param masterEpoch       the master epoch
 * @param syncStateSet      the in-sync replica ids
 * @param syncStateSetEpoch the sync-state set epoch
 */
public record BrokerSetState(String clusterName, String brokerName, long nextBrokerId, SortedMap<Long, Replica> replicas,
                             Long masterBrokerId, int masterEpoch, SortedSet<Long> syncStateSet, int syncStateSetEpoch) {

    /** The first id a broker set hands out (RocketMQ's {@code FIRST_BROKER_CONTROLLER_ID}). */
    public static final long FIRST_BROKER_ID = 1;

    /** Copies the collections into unmodifiable sorted ones. */
    public BrokerSetState {
        Objects.requireNonNull(clusterName, "clusterName");
        Objects.requireNonNull(brokerName, "brokerName");
        replicas = Collections.unmodifiableSortedMap(new TreeMap<>(replicas == null ? Collections.emptySortedMap() : replicas));
        syncStateSet = Collections.unmodifiableSortedSet(new TreeSet<>(syncStateSet == null ? Collections.emptySortedSet() : syncStateSet));
    }

    /** A broker set with its first replica and no master. */
    static BrokerSetState first(String clusterName, String brokerName, Replica replica) {
        return new BrokerSetState(clusterName, brokerName, FIRST_BROKER_ID, new TreeMap<>(), null, 0, new TreeSet<>(), 0)
                .withReplica(replica);
    }

    /** @return the address of {@code brokerId}, or null */
    public String addressOf(Long brokerId) {
        Replica replica = brokerId == null ? null : replicas.get(brokerId);
        return replica == null ? null : replica.address();
    }

    /** @return the master's address, or null */
    @JsonIgnore
    public String masterAddress() {
        return addressOf(masterBrokerId);
    }

    /** @return whether {@code brokerId} is registered */
    public boolean hasReplica(long brokerId) {
        return replicas.containsKey(brokerId);
    }

    /** @return whether an election has ever run ({@code masterEpoch > 0}) */
    @JsonIgnore
    public boolean hadElection() {
        return masterEpoch > 0;
    }

    BrokerSetState withReplica(Replica replica) {
        SortedMap<Long, Replica> copy = new TreeMap<>(replicas);
        copy.put(replica.brokerId(), replica);
        // RocketMQ counts one up per added replica; a broker applying a higher id than offered must not
        // make a later broker receive an id that is already taken.
        long next = Math.max(nextBrokerId + 1, replica.brokerId() + 1);
        return new BrokerSetState(clusterName, brokerName, next, copy, masterBrokerId, masterEpoch, syncStateSet,
                syncStateSetEpoch);
    }

    BrokerSetState withAddress(long brokerId, String address) {
        Replica old = replicas.get(brokerId);
        if (old == null) {
            return this;
        }
        SortedMap<Long, Replica> copy = new TreeMap<>(replicas);
        copy.put(brokerId, new Replica(brokerId, address, old.registerCheckCode()));
        return new BrokerSetState(clusterName, brokerName, nextBrokerId, copy, masterBrokerId, masterEpoch, syncStateSet,
                syncStateSetEpoch);
    }

    BrokerSetState withMaster(Long newMaster) {
        if (newMaster == null) {
            return new BrokerSetState(clusterName, brokerName, nextBrokerId, replicas, null, masterEpoch + 1,
                    syncStateSet, syncStateSetEpoch);
        }
        return new BrokerSetState(clusterName, brokerName, nextBrokerId, replicas, newMaster, masterEpoch + 1,
                new TreeSet<>(Set.of(newMaster)), syncStateSetEpoch + 1);
    }

    BrokerSetState withSyncStateSet(Set<Long> newSet) {
        return new BrokerSetState(clusterName, brokerName, nextBrokerId, replicas, masterBrokerId, masterEpoch,
                new TreeSet<>(newSet), syncStateSetEpoch + 1);
    }

    BrokerSetState withoutReplicas(Set<Long> ids) {
        SortedMap<Long, Replica> copy = new TreeMap<>(replicas);
        SortedSet<Long> inSync = new TreeSet<>(syncStateSet);
        copy.keySet().removeAll(ids);
        inSync.removeAll(ids);
        return new BrokerSetState(clusterName, brokerName, nextBrokerId, copy, masterBrokerId, masterEpoch, inSync,
                syncStateSetEpoch);
    }
}
