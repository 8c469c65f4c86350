package org.modmq.controller.body;

import java.util.List;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * RocketMQ's {@code BrokerReplicasInfo}, the body of a {@code CONTROLLER_GET_SYNC_STATE_DATA} answer
 * ({@code mqadmin getSyncStateSet}): per broker name, the master and its epochs, and the replicas in and
 * out of the sync-state set with their liveness as this controller sees it.
 *
 * <pre>
 * {"replicasInfoTable":{"broker-a":{"inSyncReplicas":[{"alive":true,"brokerAddress":"127.0.0.1:10911",
 *   "brokerId":1,"brokerName":"broker-a"}],"masterAddress":"127.0.0.1:10911","masterBrokerId":1,
 *   "masterEpoch":1,"notInSyncReplicas":[],"syncStateSetEpoch":1}}}
 * </pre>
 *
 * @param replicasInfoTable broker name to its replicas
 */
public record BrokerReplicasInfo(SortedMap<String, ReplicasInfo> replicasInfoTable) {

    /** Copies the table. */
    public BrokerReplicasInfo {
        replicasInfoTable = replicasInfoTable == null ? new TreeMap<>() : new TreeMap<>(replicasInfoTable);
    }

    /**
     * One broker set.
     *
     * @param masterBrokerId    the master's id, or null when there is none
     * @param masterAddress     the master's address, or null
     * @param masterEpoch       the master epoch
     * @param syncStateSetEpoch the sync-state set epoch
     * @param inSyncReplicas    replicas in the sync-state set
     * @param notInSyncReplicas the other registered replicas
     */
    public record ReplicasInfo(Long masterBrokerId, String masterAddress, Integer masterEpoch, Integer syncStateSetEpoch,
                               List<ReplicaIdentity> inSyncReplicas, List<ReplicaIdentity> notInSyncReplicas) {

        /** Copies the lists. */
        public ReplicasInfo {
            inSyncReplicas = inSyncReplicas == null ? List.of() : List.copyOf(inSyncReplicas);
            notInSyncReplicas = notInSyncReplicas == null ? List.of() : List.copyOf(notInSyncReplicas);
        }
    }

    /**
     * One replica.
     *
     * @param brokerName    its broker set
     * @param brokerId      its controller broker id
     * @param brokerAddress its address
     * @param alive         whether it is alive for this controller
     */
    public record ReplicaIdentity(String brokerName, Long brokerId, String brokerAddress, Boolean alive) {
    }
}
