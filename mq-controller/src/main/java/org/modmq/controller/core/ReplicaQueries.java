package org.modmq.controller.core;

import static org.modmq.controller.core.BrokerRegistrations.header;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.SortedMap;
import java.util.TreeMap;
import org.modmq.controller.body.BrokerReplicasInfo;
import org.modmq.controller.body.SyncStateSet;
import org.modmq.controller.state.BrokerSetState;
import org.modmq.controller.state.ControllerState;
import org.modmq.controller.state.Replica;
import org.modmq.remoting.protocol.ResponseCode;

/**
 * Reads of the replicated state: {@code CONTROLLER_GET_REPLICA_INFO} (1004) and
 * {@code CONTROLLER_GET_SYNC_STATE_DATA} (1006). Leader-only, as in RocketMQ, and answered from the
 * leader's applied state. Thread-safe.
 */
public final class ReplicaQueries {

    private final ControllerContext context;

    public ReplicaQueries(ControllerContext context) {
        this.context = Objects.requireNonNull(context, "context");
    }

    /** 1004: the master, its epoch and the sync-state set of one broker set. */
    public ControllerReply replicaInfo(String brokerName) {
        BrokerSetState set = context.leaderState().brokerSet(brokerName).orElse(null);
        if (set == null) {
            return ControllerReply.error(ResponseCode.CONTROLLER_BROKER_METADATA_NOT_EXIST, "Broker metadata is not existed");
        }
        return ControllerReply.success(header("masterBrokerId", set.masterBrokerId(), "masterAddress", set.masterAddress(),
                "masterEpoch", set.masterEpoch()), SyncStateSet.of(set.syncStateSet(), set.syncStateSetEpoch()));
    }

    /** 1006: replicas in and out of the sync-state set, with liveness, for each known broker name. */
    public ControllerReply syncStateData(List<String> brokerNames) {
        ControllerState state = context.leaderState();
        SortedMap<String, BrokerReplicasInfo.ReplicasInfo> table = new TreeMap<>();
        for (String brokerName : brokerNames) {
            BrokerSetState set = state.brokerSet(brokerName).orElse(null);
            if (set == null) {
                continue;
            }
            List<BrokerReplicasInfo.ReplicaIdentity> inSync = new ArrayList<>();
            List<BrokerReplicasInfo.ReplicaIdentity> notInSync = new ArrayList<>();
            for (Replica replica : set.replicas().values()) {
                BrokerReplicasInfo.ReplicaIdentity identity = new BrokerReplicasInfo.ReplicaIdentity(brokerName,
                        replica.brokerId(), replica.address(), context.alive(set, replica.brokerId()));
                (set.syncStateSet().contains(replica.brokerId()) ? inSync : notInSync).add(identity);
            }
            table.put(brokerName, new BrokerReplicasInfo.ReplicasInfo(set.masterBrokerId(), set.masterAddress(),
                    set.masterEpoch(), set.syncStateSetEpoch(), inSync, notInSync));
        }
        return ControllerReply.success(null, new BrokerReplicasInfo(table));
    }
}
