package org.modmq.api.spi.flush;

/**
 * The log a flush policy forces. Offsets are absolute byte offsets of the log.
 * Thread-safe: {@link #flush()} is called from the policy's own thread while the writer appends.
 */
public interface FlushTarget {

    /** The offset up to which bytes have been written (not necessarily durable). */
    long writtenOffset();

    /** The offset below which every byte is durable. */
    long durableOffset();

    /**
     * Forces everything written so far and returns the new durable offset.
     *
     * @throws org.modmq.api.spi.storage.StorageException on I/O failure
     */
    long flush();

    /**
     * Whether written bytes not yet durable live in this process's memory, so that a process crash loses
     * them ({@link org.modmq.api.spi.storage.StorageBackend#holdsWritesInProcess()}). False by default.
     */
    default boolean holdsWritesInProcess() {
        return false;
    }
}
