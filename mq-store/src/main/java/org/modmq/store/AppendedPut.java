package org.modmq.store;

import java.util.Objects;
import java.util.concurrent.CompletableFuture;

/**
 * A put as soon as it is appended: where it went, and a future for its durability.
 *
 * @param appended the outcome of the append, known at once: PUT_OK with the offsets (the records
 *     are readable and dispatched), or a status saying why nothing was stored
 * @param durable completes (never exceptionally) with the final answer once the flush policy says
 *     so: the same offsets with PUT_OK or FLUSH_DISK_TIMEOUT (or SERVICE_NOT_AVAILABLE when the store
 *     closed first); already complete with {@code appended} when nothing was stored
 */
public record AppendedPut(PutResult appended, CompletableFuture<PutResult> durable) {

    public AppendedPut {
        Objects.requireNonNull(appended, "appended");
        Objects.requireNonNull(durable, "durable");
    }

    /** Whether the messages were stored (offsets set). */
    public boolean stored() {
        return appended.commitLogOffset() >= 0;
    }
}
