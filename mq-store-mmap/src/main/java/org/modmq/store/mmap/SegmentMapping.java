package org.modmq.store.mmap;

import java.io.IOException;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.atomic.AtomicInteger;
import org.modmq.api.spi.storage.StorageException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One {@code READ_WRITE} mapping of the file range {@code [start, start + length)} of a segment: either
 * one chunk of the segment, held in the segment's chunk table while it stays mapped, or a private
 * mapping for a single read that crosses a chunk boundary.
 *
 * <p>References: a chunk mapping holds one for its place in the chunk table (dropped when it is
 * retired), every running access and every read view one more. The last release unmaps it at once,
 * so its touched pages leave the process's resident set; they stay in the page cache.
 *
 * <p>Thread-safe.
 */
final class SegmentMapping {

    private static final Logger LOG = LoggerFactory.getLogger(SegmentMapping.class);

    private final MappedByteBuffer buffer;
    private final int start;
    private final int length;
    private final MmapSegment owner;
    private final int chunk;
    private final AtomicInteger references;
    /** Set once bytes were written through this mapping; a mapping only read never needs a flush. */
    private volatile boolean writtenThrough;
    /** The budget epoch of the last access, for least-recently-used retirement. */
    private volatile long lastUse;

    private SegmentMapping(MappedByteBuffer buffer, int start, MmapSegment owner, int chunk, int references) {
        this.buffer = buffer;
        this.start = start;
        this.length = buffer.capacity();
        this.owner = owner;
        this.chunk = chunk;
        this.references = new AtomicInteger(references);
    }

    /**
     * Maps chunk {@code chunk} of {@code owner}, covering {@code [start, start + length)}, with two
     * references: the chunk table's and the caller's.
     */
    static SegmentMapping chunk(MmapSegment owner, int chunk, int start, int length) {
        return new SegmentMapping(map(owner.path(), start, length), start, owner, chunk, 2);
    }

    /** Maps {@code [start, start + length)} of {@code file} for one read, with the caller's reference only. */
    static SegmentMapping single(Path file, int start, int length) {
        return new SegmentMapping(map(file, start, length), start, null, -1, 1);
    }

    private static MappedByteBuffer map(Path file, int start, int length) {
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            return channel.map(FileChannel.MapMode.READ_WRITE, start, length);
        } catch (IOException e) {
            throw new StorageException("cannot map " + length + " bytes at " + start + " of segment " + file + ": " + e,
                    e);
        }
    }

    /** The mapping; index 0 is file position {@link #start()}. Valid while the caller holds a reference. */
    MappedByteBuffer buffer() {
        return buffer;
    }

    int start() {
        return start;
    }

    int end() {
        return start + length;
    }

    int length() {
        return length;
    }

    int chunk() {
        return chunk;
    }

    MmapSegment owner() {
        return owner;
    }

    /** Takes a reference unless the mapping is already unmapped (or being unmapped). */
    boolean tryAcquire() {
        int count;
        do {
            count = references.get();
            if (count == 0) {
                return false;
            }
        } while (!references.compareAndSet(count, count + 1));
        return true;
    }

    /** Drops one reference; the last one unmaps. */
    void release() {
        int left = references.decrementAndGet();
        if (left > 0) {
            return;
        }
        if (left < 0) {
            references.incrementAndGet();
            throw new IllegalStateException("mapping at " + start + " released more often than referenced");
        }
        if (!Unmapper.instance().unmap(buffer)) {
            LOG.debug("mapping at {} of {} left for the garbage collector to unmap", start,
                    owner == null ? "a segment" : owner.path());
        }
    }

    void markWritten() {
        if (!writtenThrough) {
            writtenThrough = true;
        }
    }

    void touch(long epoch) {
        if (lastUse != epoch) {
            lastUse = epoch;
        }
    }

    long lastUse() {
        return lastUse;
    }

    /** Only the chunk table holds it: no access runs and no view is out. */
    boolean idle() {
        return references.get() == 1;
    }

    /**
     * Whether unmapping it leaves no pending flush behind: nothing was written through it, or its chunk
     * has been forced to its end since the last write.
     */
    boolean clean() {
        return !writtenThrough || !owner.dirty(chunk);
    }

    int referenceCount() {
        return references.get();
    }
}
