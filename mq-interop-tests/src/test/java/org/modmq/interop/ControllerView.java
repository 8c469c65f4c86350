package org.modmq.interop;

import java.time.Duration;
import java.util.Objects;
import org.apache.rocketmq.remoting.protocol.body.BrokerReplicasInfo;
import org.modmq.testkit.process.Await;

/**
 * The controllers' view of broker set {@link BrokerSettings#BROKER_NAME} (CONTROLLER_GET_SYNC_STATE_DATA,
 * 1006, through the stock admin client, which finds the leader from the peer it is given), with bounded
 * waits for a master and for the SyncStateSet. Used from the test thread.
 */
final class ControllerView {

    private final StockAdmin admin;
    private final String controllerAddr;

    /** @param controllerAddr any peer's remoting address */
    ControllerView(StockAdmin admin, String controllerAddr) {
        this.admin = Objects.requireNonNull(admin, "admin");
        this.controllerAddr = Objects.requireNonNull(controllerAddr, "controllerAddr");
    }

    /** The current answer, or null while there is none (no leader yet, set unknown). */
    BrokerReplicasInfo.ReplicasInfo now() {
        try {
            return admin.syncStateData(controllerAddr, BrokerSettings.BROKER_NAME);
        } catch (IllegalStateException e) {
            return null;
        }
    }

    /** Waits until the broker at {@code address} is master in an epoch above {@code epochAbove}. */
    BrokerReplicasInfo.ReplicasInfo awaitMaster(String address, int epochAbove, Duration timeout) {
        return Await.value(address + " master in an epoch above " + epochAbove, timeout, () -> {
            BrokerReplicasInfo.ReplicasInfo info = now();
            return info != null && address.equals(info.getMasterAddress()) && info.getMasterEpoch() > epochAbove
                    ? info : null;
        });
    }

    /** Waits until the set has no master (its last one went inactive and no member could replace it). */
    BrokerReplicasInfo.ReplicasInfo awaitNoMaster(Duration timeout) {
        return Await.value("no master", timeout, () -> {
            BrokerReplicasInfo.ReplicasInfo info = now();
            return info != null && (info.getMasterAddress() == null || info.getMasterAddress().isEmpty()) ? info : null;
        });
    }

    /** Waits until there is a master and the SyncStateSet has {@code members} members, every one alive. */
    BrokerReplicasInfo.ReplicasInfo awaitInSync(int members, Duration timeout) {
        return Await.value("a SyncStateSet of " + members + " live members", timeout, () -> {
            BrokerReplicasInfo.ReplicasInfo info = now();
            return info != null && info.getMasterAddress() != null && info.getInSyncReplicas().size() == members
                    && info.getInSyncReplicas().stream().allMatch(r -> !Boolean.FALSE.equals(r.getAlive()))
                    ? info : null;
        });
    }
}
