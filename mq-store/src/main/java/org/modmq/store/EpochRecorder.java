package org.modmq.store;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import org.modmq.api.spi.replication.EpochEntry;
import org.modmq.store.epoch.EpochHistory;

/**
 * Records a new master's epoch on a thread of its own, so that the file's force overlaps the dispatch of
 * the replicated tail on the failover path. A role change is rare: one short-lived thread per change.
 */
final class EpochRecorder {

    private EpochRecorder() {
    }

    /** Starts appending {@code entry} to {@code history}; the future completes once it is durable. */
    static CompletableFuture<Void> record(EpochHistory history, EpochEntry entry) {
        CompletableFuture<Void> done = new CompletableFuture<>();
        Thread thread = new Thread(() -> {
            try {
                history.append(entry);
                done.complete(null);
            } catch (Throwable e) {
                done.completeExceptionally(e);
            }
        }, "store-epoch-record");
        thread.setDaemon(true);
        thread.start();
        return done;
    }

    /** Waits for {@code recording}; a failure is rethrown as the append threw it. */
    static void await(CompletableFuture<Void> recording) {
        try {
            recording.join();
        } catch (CompletionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof RuntimeException runtime) {
                throw runtime;
            }
            if (cause instanceof Error error) {
                throw error;
            }
            throw e;
        }
    }
}
