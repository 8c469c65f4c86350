package org.modmq.controller.body;

import java.util.Set;
import java.util.SortedSet;
import java.util.TreeSet;

/**
 * RocketMQ's {@code SyncStateSet} body: the in-sync broker ids of a broker set and the epoch of that set,
 * {@code {"syncStateSet":[1,2],"syncStateSetEpoch":3}}. Sent by brokers with
 * {@code CONTROLLER_ALTER_SYNC_STATE_SET}, answered to 1001, 1003 and 1004, and carried by
 * {@code NOTIFY_BROKER_ROLE_CHANGED}.
 *
 * @param syncStateSet      broker ids (the controller ids, from 1), sorted
 * @param syncStateSetEpoch the epoch of that set
 */
public record SyncStateSet(SortedSet<Long> syncStateSet, int syncStateSetEpoch) {

    /** Copies the ids into a sorted set (a missing set reads as empty). */
    public SyncStateSet {
        syncStateSet = syncStateSet == null ? new TreeSet<>() : new TreeSet<>(syncStateSet);
    }

    /** @return a body for {@code ids} at {@code epoch} */
    public static SyncStateSet of(Set<Long> ids, int epoch) {
        return new SyncStateSet(new TreeSet<>(ids), epoch);
    }
}
