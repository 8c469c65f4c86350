package org.modmq.broker.controller;

import java.util.Set;

/**
 * What a controller says about a broker set: its master and SyncStateSet (the answer of REGISTER,
 * GET_REPLICA_INFO, ELECT_MASTER, a leader's heartbeat answer, or a NOTIFY_BROKER_ROLE_CHANGED push).
 * Immutable.
 *
 * @param masterBrokerId the master's broker id, null when the set has none
 * @param masterAddress the master's main address, null or empty when none
 * @param masterEpoch the master epoch (0 before the first election)
 * @param syncStateSetEpoch the SyncStateSet's epoch, -1 when the answer did not carry it
 * @param syncStateSet the members, empty when the answer did not carry them
 */
record ReplicaView(Long masterBrokerId, String masterAddress, int masterEpoch, int syncStateSetEpoch,
                   Set<Long> syncStateSet) {

    ReplicaView {
        syncStateSet = syncStateSet == null ? Set.of() : Set.copyOf(syncStateSet);
    }

    /** Whether the set has a master. */
    boolean hasMaster() {
        return masterBrokerId != null && masterBrokerId >= 0 && masterAddress != null && !masterAddress.isEmpty();
    }
}
