package org.modmq.api.spi.replication;

/**
 * Where a master-side strategy reports what its replicas hold; the store keeps the acknowledgements,
 * decides when a synchronous send is replicated and computes the confirm offset.
 *
 * <p>Threading: any thread (typically the strategy's network thread); every method returns at once and
 * never throws for a late or repeated call.
 */
public interface ReplicaProgress {

    /**
     * {@code replica} holds every byte below {@code offset}. The first call for a link means it connected;
     * offsets of one link only grow (a smaller one is ignored).
     */
    void acknowledged(ReplicaLink replica, long offset);

    /** The link's connection ended; it no longer counts until it acknowledges again. */
    void disconnected(ReplicaLink replica);
}
