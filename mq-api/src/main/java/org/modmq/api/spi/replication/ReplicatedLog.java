package org.modmq.api.spi.replication;

import io.netty.buffer.ByteBuf;

/**
 * The CommitLog as replication sees it: raw bytes at absolute offsets. Thread-safe.
 */
public interface ReplicatedLog {

    /** The offset where the next byte will be written; bytes below it are readable. */
    long maxOffset();

    /** The lowest offset still held. */
    long minOffset();

    /**
     * Up to {@code maxLength} bytes starting at {@code offset}, never crossing a segment end; empty when
     * {@code offset == maxOffset()}. The caller owns the returned buffer and releases it.
     *
     * @throws IndexOutOfBoundsException when {@code offset} is outside {@code [minOffset, maxOffset]}
     */
    ByteBuf read(long offset, int maxLength);

    /**
     * Appends replicated bytes (replica side) so the log stays byte-identical to the master's. The
     * bytes must start at {@link #maxOffset()}; the log's own dispatcher indexes them. The caller keeps
     * ownership of {@code bytes}.
     *
     * @throws IllegalArgumentException when {@code offset != maxOffset()}
     */
    void append(long offset, ByteBuf bytes);

    /**
     * Cuts the log back to {@code offset}, dropping every byte at or above it together with what was
     * indexed from them (for a replica whose tail diverged from a new master's).
     */
    void truncate(long offset);
}
