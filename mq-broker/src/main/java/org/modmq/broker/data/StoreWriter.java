package org.modmq.broker.data;

import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import org.modmq.api.message.BrokerMessage;
import org.modmq.api.message.PutStatus;
import org.modmq.api.message.PutStatusException;
import org.modmq.broker.runtime.ReplicationGate;
import org.modmq.store.MessageIds;
import org.modmq.store.MessageStore;
import org.modmq.store.PutResult;

/**
 * Appends messages for the broker and decides what the answer waits for: nothing when the producer
 * sent {@code WAIT=false}; the flush, and on a SYNC_MASTER also replication, otherwise. The flush
 * future and the replication future are combined, so they are awaited together.
 *
 * <p>With {@code WAIT=false} and a flush policy that has not completed the put yet, the result is
 * derived right after the append (under a lock that orders this broker's appends): the queue
 * offsets from the queue's new max offset, the record offsets by walking back from the CommitLog's new
 * max offset with each record's stored size (protocol notes 5.1). Thread-safe.
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
        CompletableFuture<PutResult> flushed;
        long endBound;
        PutResult early = null;
        synchronized (appendOrder) {
            flushed = store.putMessages(batch);
            endBound = store.getCommitLogMaxOffset();
            // Inside the lock so the strategy sees end offsets in append order.
            replication.appended(endBound);
            if (!waitStore && !flushed.isDone()) {
                early = derive(batch, endBound);
            }
        }
        if (early != null) {
            return CompletableFuture.completedFuture(early);
        }
        if (!waitStore || !syncMaster) {
            return flushed;
        }
        CompletableFuture<Throwable> replicated = replication.awaitReplicated(endBound)
                .handle((ignored, failure) -> failure);
        return flushed.thenCombine(replicated, StoreWriter::withReplication);
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

    private PutResult derive(List<BrokerMessage> batch, long endOffset) {
        BrokerMessage first = batch.get(0);
        long queueOffset = store.getMaxOffsetInQueue(first.topic(), first.queueId()) - batch.size();
        long[] offsets = new long[batch.size()];
        long position = endOffset;
        int total = 0;
        for (int i = batch.size() - 1; i >= 0; i--) {
            int size = storedSize(batch.get(i));
            position -= size;
            total += size;
            offsets[i] = position;
        }
        List<String> ids = new ArrayList<>(batch.size());
        for (int i = 0; i < batch.size(); i++) {
            ids.add(MessageIds.offsetMsgId(batch.get(i).storeHost(), offsets[i]));
        }
        return new PutResult(PutStatus.PUT_OK, offsets[0], total, queueOffset, batch.size(), 0, ids, "");
    }

    /** TOTALSIZE of the record the store writes for {@code message} (protocol notes 5.1). */
    static int storedSize(BrokerMessage message) {
        int topic = message.topic().getBytes(StandardCharsets.UTF_8).length;
        int properties = message.properties().getBytes(StandardCharsets.UTF_8).length;
        return 4 + 4 + 4 + 4 + 4 + 8 + 8 + 4 + 8 + hostSize(message.bornHost()) + 8 + hostSize(message.storeHost())
                + 4 + 8 + 4 + message.body().length + (topic > Byte.MAX_VALUE ? 2 : 1) + topic + 2 + properties;
    }

    private static int hostSize(InetSocketAddress host) {
        return host.getAddress() != null && host.getAddress().getAddress().length == 16 ? 20 : 8;
    }
}
