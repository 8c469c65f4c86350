package org.modmq.broker.data;

import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import org.modmq.api.message.BrokerMessage;
import org.modmq.store.AppendedPut;
import org.modmq.store.MessageStore;
import org.modmq.store.PutResult;

/**
 * Appends messages for the broker and decides what the answer waits for: nothing when the producer
 * sent {@code WAIT=false} (the append's own result, with its offsets, is the answer); otherwise the
 * store's flush and replication futures together (the store's replication policy decides whether a
 * send waits for replicas: SYNC_MASTER, or the SyncStateSet in controller mode). Thread-safe.
 */
final class StoreWriter {

    private final MessageStore store;

    StoreWriter(MessageStore store) {
        this.store = Objects.requireNonNull(store, "store");
    }

    /**
     * Stores {@code batch} (one topic-queue). The future never completes exceptionally.
     *
     * @param waitStore whether the answer waits for flush and replication
     */
    CompletableFuture<PutResult> write(List<BrokerMessage> batch, boolean waitStore) {
        AppendedPut put = store.append(batch, waitStore);
        if (!put.stored()) {
            return put.durable();
        }
        if (!waitStore) {
            return CompletableFuture.completedFuture(put.appended());
        }
        return put.acknowledged();
    }
}
