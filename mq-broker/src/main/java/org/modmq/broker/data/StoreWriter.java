package org.modmq.broker.data;

import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import org.modmq.api.message.BrokerMessage;
import org.modmq.broker.runtime.AckGate;
import org.modmq.store.AppendedPut;
import org.modmq.store.MessageStore;
import org.modmq.store.PutResult;

/**
 * Appends messages for the broker and decides what the answer waits for: nothing when the producer
 * sent {@code WAIT=false} (the append's own result, with its offsets, is the answer); otherwise the
 * store's flush and replication futures together (the store's replication policy decides whether a
 * send waits for replicas: SYNC_MASTER, or the SyncStateSet in controller mode). Either way the answer
 * then passes the {@link AckGate} (controller mode: only while this master's lease holds). Thread-safe.
 */
final class StoreWriter {

    private final MessageStore store;
    private final AckGate gate;

    StoreWriter(MessageStore store, AckGate gate) {
        this.store = Objects.requireNonNull(store, "store");
        this.gate = Objects.requireNonNull(gate, "gate");
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
            return gate.admit(put.appended());
        }
        return put.acknowledged().thenCompose(gate::admit);
    }
}
