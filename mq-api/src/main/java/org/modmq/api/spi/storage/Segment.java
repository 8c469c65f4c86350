package org.modmq.api.spi.storage;

import io.netty.buffer.ByteBuf;
import java.nio.file.Path;

/**
 * One fixed-size file of a log: positional writes, reference-counted read views, flush up to a
 * position and deterministic close and delete. Positions are byte offsets from the start of the
 * file, in {@code [0, capacity]}.
 *
 * <p>Threads: one writer at a time ({@link #write}); one flusher ({@link #flush}) that may run at the
 * same time as the writer (a flush policy forces while the log appends); any number of concurrent
 * readers.
 * A reader may read bytes another thread wrote once it has learnt of the write through a
 * happens-before edge of its own (for example a volatile max offset published after the write).
 *
 * <p>Lifecycle: open → closed (after {@link #close()} or {@link #delete()}). A closed segment rejects
 * writes, reads and flushes with {@link IllegalStateException}; views handed out before stay valid
 * until their last release, and only then are the file's resources (mapping, descriptor) let go and,
 * after {@link #delete()}, the file's storage freed.
 */
public interface Segment extends AutoCloseable {

    /** The file. */
    Path path();

    /** Size in bytes, fixed at creation. */
    int capacity();

    /**
     * Writes the readable bytes of {@code source} at {@code position}. The source's indexes are not
     * moved; the caller keeps ownership of it and releases it.
     *
     * @throws IndexOutOfBoundsException when {@code position} is negative or the bytes do not fit
     * @throws IllegalStateException when closed
     * @throws StorageException on I/O failure
     */
    void write(int position, ByteBuf source);

    /**
     * A read-only view of {@code length} bytes at {@code position}, with a reference count of one.
     * The caller owns the view and releases it exactly once. The view stays readable after the
     * segment is closed or deleted. Bytes never written read as zero.
     *
     * @throws IndexOutOfBoundsException when the range is not within {@code [0, capacity]}
     * @throws IllegalStateException when closed
     * @throws StorageException on I/O failure
     */
    ByteBuf read(int position, int length);

    /**
     * Makes every byte written below {@code upTo} durable (forced to the device). Returns at once when
     * they already are. Idempotent.
     *
     * @param upTo position, {@code 0..capacity}
     * @throws IndexOutOfBoundsException when {@code upTo} is outside {@code [0, capacity]}
     * @throws IllegalStateException when closed
     * @throws StorageException on I/O failure
     */
    void flush(int upTo);

    /**
     * The position below which every written byte is durable: the highest {@code upTo} flushed
     * since this segment was opened, 0 for a segment opened and not flushed yet.
     */
    int durablePosition();

    /** Optional hint: fault the file into memory ahead of use. The default does nothing. */
    default void warm() {
    }

    /** Closes the segment; resources go when the last view is released. Idempotent. */
    @Override
    void close();

    /** Closes the segment and removes its file (once the last view is released). Idempotent. */
    void delete();
}
