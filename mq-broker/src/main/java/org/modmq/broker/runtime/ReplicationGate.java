package org.modmq.broker.runtime;

import java.util.concurrent.CompletableFuture;

/**
 * SEAM(replication): what a SYNC_MASTER send waits for besides the flush. A send's answer is the
 * combination ({@code thenCombine}) of the store's flush future and this gate's future, so both are
 * awaited together, not one after the other. A {@code ReplicationStrategy} plugs in as
 * {@code offset -> strategy.awaitReplicated(offset, slaveTimeout)} (see
 * {@code org.modmq.broker.replication.ReplicationBinding}); without replication the gate is {@link #NONE}. Implementations are thread-safe and must not block.
 */
@FunctionalInterface
public interface ReplicationGate {

    /** No replication wired: every offset counts as replicated at once. */
    ReplicationGate NONE = endOffset -> CompletableFuture.completedFuture(null);

    /**
     * @param endOffset CommitLog offset (bytes) below which a replica must hold everything
     * @return completes when that holds; fails with a {@code PutStatusException}
     *     (FLUSH_SLAVE_TIMEOUT, SLAVE_NOT_AVAILABLE) otherwise
     */
    CompletableFuture<Void> awaitReplicated(long endOffset);

    /**
     * The CommitLog now ends at {@code endOffset} (bytes); called after every append on every role, from
     * the appending thread, before any wait. Must not block. The default does nothing.
     */
    default void appended(long endOffset) {
    }
}
