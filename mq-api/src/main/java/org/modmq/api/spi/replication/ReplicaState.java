package org.modmq.api.spi.replication;

/**
 * What a master's store knows of one connected replica. Immutable.
 *
 * @param address the replica's remote address
 * @param brokerId its broker id, {@link ReplicaLink#UNKNOWN_ID} in classic HA
 * @param ackedOffset the highest CommitLog offset it confirmed to hold (bytes)
 * @param lastCaughtUpMillis wall-clock ms when it last held everything the master had written (at
 *     most one sampling step earlier than exact); 0 when never
 * @param inSync whether it counts for a synchronous send now (classic: within
 *     {@code haSlaveFallbehindMax}; controller mode: a member of the SyncStateSet)
 */
public record ReplicaState(String address, long brokerId, long ackedOffset, long lastCaughtUpMillis,
                           boolean inSync) {
}
