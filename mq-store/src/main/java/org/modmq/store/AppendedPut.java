package org.modmq.store;

import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import org.modmq.api.message.PutStatus;
import org.modmq.api.message.PutStatusException;

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

    /** A put that stored nothing: both futures are complete with the refusal. */
    static AppendedPut refused(PutStatus status, String detail) {
        PutResult result = PutResult.failed(status, detail);
        CompletableFuture<PutResult> done = CompletableFuture.completedFuture(result);
        return new AppendedPut(result, done, done);
    }

    /** {@code stored} once {@code step} completes, or the same offsets with the status its failure names. */
    static CompletableFuture<PutResult> outcome(PutResult stored, CompletableFuture<?> step) {
        if (step.isDone() && !step.isCompletedExceptionally()) {
            return CompletableFuture.completedFuture(stored);
        }
        return step.handle((ignored, failure) -> {
            if (failure == null) {
                return stored;
            }
            Throwable cause = failure instanceof CompletionException && failure.getCause() != null
                    ? failure.getCause() : failure;
            PutStatus status = cause instanceof PutStatusException put ? put.status() : PutStatus.UNKNOWN_ERROR;
            return new PutResult(status, stored.commitLogOffset(), stored.size(), stored.queueOffset(),
                    stored.count(), stored.storeTimestamp(), stored.msgIds(), String.valueOf(cause.getMessage()));
        });
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
