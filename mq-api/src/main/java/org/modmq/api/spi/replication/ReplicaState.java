package org.modmq.api.spi.replication;

/**
 * What a master knows of one replica.
 *
 * @param address the replica's remote address
 * @param ackedOffset the highest log offset the replica confirmed to hold
 * @param inSync whether it counts for synchronous replication
 */
public record ReplicaState(String address, long ackedOffset, boolean inSync) {
}
