package org.modmq.store;

import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import org.modmq.api.message.PutStatus;

/**
 * A put as soon as it is appended: where it went, and the two futures its acknowledgement waits for.
 * Both complete, never exceptionally, with the same offsets as {@code appended}; both are already
 * complete with {@code appended} when nothing was stored.
 *
 * @param appended the outcome of the append, known at once: PUT_OK with the offsets (the records are
 *     readable and dispatched), or a status saying why nothing was stored
 * @param durable completes once the flush policy says so: PUT_OK or FLUSH_DISK_TIMEOUT (or
 *     SERVICE_NOT_AVAILABLE when the store closed first)
 * @param replicated completes once the replication policy says so: PUT_OK, FLUSH_SLAVE_TIMEOUT,
 *     SLAVE_NOT_AVAILABLE, or SERVICE_NOT_AVAILABLE when the store stopped being master first
 */
public record AppendedPut(PutResult appended, CompletableFuture<PutResult> durable,
                          CompletableFuture<PutResult> replicated) {

    public AppendedPut {
        Objects.requireNonNull(appended, "appended");
        Objects.requireNonNull(durable, "durable");
        Objects.requireNonNull(replicated, "replicated");
    }

    /** Whether the messages were stored (offsets set). */
    public boolean stored() {
        return appended.commitLogOffset() >= 0;
    }

    /**
     * Both futures awaited together: the flush's status unless it is PUT_OK, then the replication's (as
     * RocketMQ reports a send that was neither forced nor replicated in time).
     */
    public CompletableFuture<PutResult> acknowledged() {
        if (durable == replicated) {
            return durable;
        }
        return durable.thenCombine(replicated, (flushed, copied) ->
                flushed.status() != PutStatus.PUT_OK ? flushed : copied);
    }
}
