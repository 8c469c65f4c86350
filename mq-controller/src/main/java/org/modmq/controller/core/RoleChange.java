package org.modmq.controller.core;

import java.util.SortedMap;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * A new master was elected: what {@code NOTIFY_BROKER_ROLE_CHANGED} tells the broker set's replicas.
 *
 * @param clusterName       the cluster
 * @param brokerName        the broker set
 * @param masterBrokerId    the new master
 * @param masterAddress     its address
 * @param masterEpoch       the new master epoch
 * @param syncStateSetEpoch the new sync-state set epoch
 * @param syncStateSet      the new sync-state set
 * @param replicas          every registered replica's address by id
 */
public record RoleChange(String clusterName, String brokerName, long masterBrokerId, String masterAddress, int masterEpoch,
                         int syncStateSetEpoch, SortedSet<Long> syncStateSet, SortedMap<Long, String> replicas) {

    public RoleChange {
        syncStateSet = new TreeSet<>(syncStateSet);
        replicas = new TreeMap<>(replicas);
    }
}
