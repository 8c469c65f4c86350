package org.modmq.api.spi.replication;

import io.netty.buffer.ByteBuf;
import java.util.List;

/**
 * The CommitLog as replication sees it: raw bytes at absolute offsets, the epoch history and the
 * confirm offset. Thread-safe.
 *
 * <p>Roles: {@link #read}, the offsets and {@link #epochs()} serve every role; {@link #append},
 * {@link #truncate}, {@link #startEpoch} and {@link #confirm} are for a replica and throw
 * {@link IllegalStateException} while the store is a master (a master's log only takes its own writes).
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
     * Appends replicated bytes so the log stays byte-identical to the master's; the store's dispatcher
     * indexes them. The bytes must start at {@link #maxOffset()}, except that an empty log may start at
     * any segment start (a master streams an empty replica only its last segment). The caller keeps
     * ownership of {@code bytes}.
     *
     * @throws IllegalArgumentException when the bytes cannot start at {@code offset}
     * @throws IllegalStateException on a master
     */
    void append(long offset, ByteBuf bytes);

    /**
     * Cuts the log back to {@code offset}: every byte at or above it goes, with the ConsumeQueue and index
     * entries built from them and the epoch entries that start at or above it. An offset at or below
     * {@link #minOffset()} empties the log. Crash-safe: a truncation interrupted by a crash is completed
     * when the store opens again, before anything else reads the log. Blocks while files are cut.
     *
     * @throws IllegalStateException on a master
     */
    void truncate(long offset);

    /** The epoch history, oldest first; empty for a log that never had a master epoch (classic HA). */
    List<EpochEntry> epochs();

    /**
     * Replica: the master's stream entered {@code entry.epoch()} at {@code entry.startOffset()}; recorded
     * durably before this returns. Repeating the last entry changes nothing.
     *
     * @throws IllegalArgumentException when the epoch is not above the last one, or its start lies below
     *     the last entry's start or above {@link #maxOffset()}
     * @throws IllegalStateException on a master
     */
    void startEpoch(EpochEntry entry);

    /**
     * The offset below which every byte is confirmed: held by every replica a synchronous send waits for
     * (master), or as the master last said (replica). Never above {@link #maxOffset()}.
     */
    long confirmOffset();

    /**
     * Replica: the master says bytes below {@code offset} are confirmed (clamped to {@link #maxOffset()};
     * a smaller value than before is ignored unless the log was truncated since).
     *
     * @throws IllegalStateException on a master
     */
    void confirm(long offset);
}
