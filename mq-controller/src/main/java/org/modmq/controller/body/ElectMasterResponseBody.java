package org.modmq.controller.body;

import java.util.SortedSet;
import java.util.TreeSet;

/**
 * RocketMQ's {@code ElectMasterResponseBody}, the body of a {@code CONTROLLER_ELECT_MASTER} answer:
 * {@code {"brokerMemberGroup":{...},"syncStateSet":[2]}}. The member group is present when a new master
 * was elected (RocketMQ leaves it out when the old master stays).
 *
 * @param brokerMemberGroup the broker set's replicas, or null
 * @param syncStateSet      the sync-state set after the election
 */
public record ElectMasterResponseBody(BrokerMemberGroup brokerMemberGroup, SortedSet<Long> syncStateSet) {

    /** Copies the set. */
    public ElectMasterResponseBody {
        syncStateSet = syncStateSet == null ? new TreeSet<>() : new TreeSet<>(syncStateSet);
    }
}
