package org.modmq.broker.controller;

import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.function.BooleanSupplier;
import org.modmq.api.message.PutStatus;
import org.modmq.broker.runtime.AckGate;
import org.modmq.store.PutResult;

/**
 * Controller mode's {@link AckGate}: a stored send is answered only while this broker is master and its
 * {@link WriteLease} holds; otherwise it waits for the lease to be renewed, at most {@code maxWaitMillis},
 * and is answered SERVICE_NOT_AVAILABLE if it is not (the stock client then retries, possibly on the new
 * master: a duplicate, never a loss). Thread-safe.
 */
public final class LeaseAckGate implements AckGate {

    private final WriteLease lease;
    private final BooleanSupplier master;
    private final long maxWaitMillis;

    public LeaseAckGate(WriteLease lease, BooleanSupplier master, long maxWaitMillis) {
        this.lease = Objects.requireNonNull(lease, "lease");
        this.master = Objects.requireNonNull(master, "master");
        this.maxWaitMillis = maxWaitMillis;
    }

    @Override
    public CompletableFuture<PutResult> admit(PutResult stored) {
        if (master.getAsBoolean() && lease.valid()) {
            return CompletableFuture.completedFuture(stored);
        }
        return lease.awaitValid(maxWaitMillis).thenApply(valid -> valid && master.getAsBoolean() ? stored
                : new PutResult(PutStatus.SERVICE_NOT_AVAILABLE, stored.commitLogOffset(), stored.size(),
                        stored.queueOffset(), stored.count(), stored.storeTimestamp(), stored.msgIds(),
                        "not acknowledged: this broker holds no master lease from the controller"));
    }
}
