package org.modmq.api.spi.flush;

import java.util.concurrent.CompletableFuture;

/**
 * Decides when written bytes are forced to disk and tells the producer's send when what it asked for
 * is true. Thread-safe: {@link #appended(long)} is called by writer threads after each append, at any
 * time between {@link #start()} and {@link #close()}; {@code start} and {@code close} come from the
 * store's start-up and shutdown thread (see the lifecycle in {@link org.modmq.api.spi}).
 */
public interface FlushPolicy extends AutoCloseable {

    /** The provider name ({@code SYNC_FLUSH}, {@code ASYNC_FLUSH}, ...). */
    String name();

    /**
     * Tells the policy the log now ends at {@code endOffset} and returns a future that completes
     * (with the durable offset) once the append is as durable as this policy promises: for a
     * synchronous policy when {@link FlushTarget#durableOffset()} ≥ {@code endOffset}; for an
     * asynchronous one at once. A synchronous policy fails the future with a
     * {@link org.modmq.api.message.PutStatusException} of status {@code FLUSH_DISK_TIMEOUT} when the
     * force does not happen within its timeout, and with {@code SERVICE_NOT_AVAILABLE} when closed.
     */
    CompletableFuture<Long> appended(long endOffset);

    /** Whether {@link #appended(long)} waits for a force. */
    boolean synchronous();

    /**
     * Starts the policy's own work (a flush thread, a periodic task) if {@code create} did not. Called once
     * by the store, before the first {@link #appended(long)}. No-op by default.
     */
    default void start() {
    }

    /** Forces what is written, stops the policy's thread and fails any future still pending. Idempotent. */
    @Override
    void close();
}
