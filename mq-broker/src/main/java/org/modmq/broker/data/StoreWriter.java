package org.modmq.broker.data;

import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import org.modmq.api.message.BrokerMessage;
import org.modmq.api.message.PutStatus;
import org.modmq.api.message.PutStatusException;
import org.modmq.broker.runtime.ReplicationGate;
import org.modmq.store.AppendedPut;
import org.modmq.store.MessageStore;
import org.modmq.store.PutResult;

/**
 * Appends messages for the broker and decides what the answer waits for: nothing when the producer
 * sent {@code WAIT=false} (the append's own result, with its offsets, is the answer); the flush, and
 * on a SYNC_MASTER also replication, otherwise. The flush future and the replication future are
 * combined, so they are awaited together. Thread-safe.
 */
final class StoreWriter {

    private final MessageStore store;
    private final ReplicationGate replication;
    private final boolean syncMaster;
    private final Object appendOrder = new Object();

    StoreWriter(MessageStore store, ReplicationGate replication, boolean syncMaster) {
        this.store = Objects.requireNonNull(store, "store");
        this.replication = Objects.requireNonNull(replication, "replication");
        this.syncMaster = syncMaster;
    }

    /**
     * Stores {@code batch} (one topic-queue). The future never completes exceptionally.
     *
     * @param waitStore whether the answer waits for flush (and replication)
     */
    CompletableFuture<PutResult> write(List<BrokerMessage> batch, boolean waitStore) {
        AppendedPut put;
        synchronized (appendOrder) {
            put = store.append(batch);
            if (put.stored()) {
                // Inside the lock so the strategy sees end offsets in append order.
                replication.appended(put.appended().endOffset());
            }
        }
        if (!put.stored()) {
            return put.durable();
        }
        if (!waitStore) {
            return CompletableFuture.completedFuture(put.appended());
        }
        if (!syncMaster) {
            return put.durable();
        }
        CompletableFuture<Throwable> replicated = replication.awaitReplicated(put.appended().endOffset())
                .handle((ignored, failure) -> failure);
        return put.durable().thenCombine(replicated, StoreWriter::withReplication);
    }

    private static PutResult withReplication(PutResult flushed, Throwable failure) {
        if (failure == null || flushed.status() != PutStatus.PUT_OK) {
            return flushed;
        }
        Throwable cause = failure instanceof CompletionException && failure.getCause() != null
                ? failure.getCause() : failure;
        PutStatus status = cause instanceof PutStatusException put ? put.status() : PutStatus.FLUSH_SLAVE_TIMEOUT;
        return new PutResult(status, flushed.commitLogOffset(), flushed.size(), flushed.queueOffset(),
                flushed.count(), flushed.storeTimestamp(), flushed.msgIds(), String.valueOf(cause.getMessage()));
    }
}
