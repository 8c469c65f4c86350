package org.modmq.controller.state;

import java.util.Optional;
import java.util.Set;
import org.modmq.remoting.protocol.ResponseCode;

/**
 * The state-only checks of {@code CONTROLLER_ALTER_SYNC_STATE_SET}, in RocketMQ's order and with its codes.
 * Used by the leader before proposing and by {@link ControllerState#apply} again. Liveness of the new
 * members is the leader's check alone. Stateless.
 */
public final class SyncStateSetCheck {

    private SyncStateSetCheck() {
    }

    /**
     * @param set               the broker set, or null when unknown
     * @param masterBrokerId    the requesting master
     * @param masterEpoch       its master epoch
     * @param syncStateSetEpoch the epoch it changes from
     * @param newSet            the requested set
     * @return the refusal, or empty when the change may be applied
     */
    public static Optional<EventResult> refusal(BrokerSetState set, long masterBrokerId, int masterEpoch,
                                                int syncStateSetEpoch, Set<Long> newSet) {
        if (set == null) {
            return refuse(ResponseCode.CONTROLLER_ALTER_SYNC_STATE_SET_FAILED, "Broker metadata is not existed");
        }
        if (set.syncStateSet().equals(newSet)) {
            return refuse(ResponseCode.CONTROLLER_ALTER_SYNC_STATE_SET_FAILED,
                    "The newSyncStateSet is equal with oldSyncStateSet, no needed to update syncStateSet");
        }
        if (set.masterBrokerId() == null || set.masterBrokerId() != masterBrokerId) {
            return refuse(ResponseCode.CONTROLLER_INVALID_MASTER, "Rejecting alter syncStateSet request because the current"
                    + " leader is:{" + set.masterBrokerId() + "}, not {" + masterBrokerId + "}");
        }
        if (set.masterEpoch() != masterEpoch) {
            return refuse(ResponseCode.CONTROLLER_FENCED_MASTER_EPOCH, "Rejecting alter syncStateSet request because the"
                    + " current master epoch is:{" + set.masterEpoch() + "}, not {" + masterEpoch + "}");
        }
        if (set.syncStateSetEpoch() != syncStateSetEpoch) {
            return refuse(ResponseCode.CONTROLLER_FENCED_SYNC_STATE_SET_EPOCH, "Rejecting alter syncStateSet request because"
                    + " the current syncStateSet epoch is:{" + set.syncStateSetEpoch() + "}, not {" + syncStateSetEpoch + "}");
        }
        for (Long replica : newSet) {
            if (replica == null || !set.hasReplica(replica)) {
                return refuse(ResponseCode.CONTROLLER_INVALID_REPLICAS,
                        "Rejecting alter syncStateSet request because the replicas {" + replica + "} don't exist");
            }
        }
        if (!newSet.contains(set.masterBrokerId())) {
            return refuse(ResponseCode.CONTROLLER_ALTER_SYNC_STATE_SET_FAILED, "Rejecting alter syncStateSet request"
                    + " because the newSyncStateSet don't contains origin leader {" + set.masterBrokerId() + "}");
        }
        return Optional.empty();
    }

    private static Optional<EventResult> refuse(int code, String remark) {
        return Optional.of(EventResult.refused(code, remark));
    }
}
