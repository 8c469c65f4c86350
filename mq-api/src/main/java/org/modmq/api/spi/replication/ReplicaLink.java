package org.modmq.api.spi.replication;

import java.util.Objects;

/**
 * One replica connection as a master-side strategy names it to the store. Two links are the same
 * replica when both fields are equal. Immutable.
 *
 * @param address the replica's remote address ({@code host:port})
 * @param brokerId the replica's broker id when its protocol says it (controller mode), else -1
 */
public record ReplicaLink(String address, long brokerId) {

    /** Broker id of a replica whose protocol does not carry one (classic HA). */
    public static final long UNKNOWN_ID = -1;

    public ReplicaLink {
        Objects.requireNonNull(address, "address");
    }
}
