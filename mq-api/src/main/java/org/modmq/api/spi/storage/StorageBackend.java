package org.modmq.api.spi.storage;

import java.nio.file.Path;

/**
 * Opens fixed-size segment files. The CommitLog and the ConsumeQueues are built on segments and do not
 * know which backend serves them.
 *
 * <p>Thread-safe: {@link #open} may be called from any thread between {@link #start()} and
 * {@link #close()} (see the lifecycle in {@link org.modmq.api.spi}). Closing the backend closes every segment it opened that is still open; read views
 * already handed out stay valid until released.
 */
public interface StorageBackend extends AutoCloseable {

    /** The provider name this backend was created under ({@code mmap}, {@code direct}, ...). */
    String name();

    /**
     * Opens the segment file at {@code file}, creating it with {@code capacity} bytes (zero-filled as
     * far as readers can tell) when it does not exist.
     *
     * @param capacity bytes, > 0; must equal the length of an existing file
     * @throws IllegalArgumentException when {@code capacity} is not positive or differs from an existing
     *     file's length
     * @throws StorageException on I/O failure
     */
    Segment open(Path file, int capacity);

    /**
     * Whether bytes written to a segment may stay in this process's memory until the segment is flushed,
     * so that a process crash, not only a power loss, loses them (a staging buffer for O_DIRECT writes).
     * A flush policy that forces only now and then forces such a log as writes arrive instead. False by
     * default: the bytes are in the operating system's page cache once a write returns.
     */
    default boolean holdsWritesInProcess() {
        return false;
    }

    /**
     * Starts background work of the backend, if any. Called once by the runtime after create, before the
     * first {@link #open}, on the start-up thread. No-op by default.
     */
    default void start() {
    }

    /** Idempotent; called on the shutdown thread after every user of its segments has stopped. */
    @Override
    void close();
}
