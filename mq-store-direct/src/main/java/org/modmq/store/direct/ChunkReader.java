package org.modmq.store.direct;

import io.netty.buffer.ByteBuf;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Objects;

/**
 * The file side of one segment's reads: reads whole aligned chunks through a pooled aligned buffer and
 * keeps them in the backend's {@link ReadCache}. Not thread-safe on its own: the owning segment
 * serialises calls.
 */
final class ChunkReader {

    private final SegmentFile file;
    private final int capacity;
    private final long segmentId;
    private final ReadCache cache;
    private final AlignedBufferPool pool;
    private final AlignedBufferPool runPool;
    private final int chunkBytes;

    ChunkReader(SegmentFile file, int capacity, long segmentId, ReadCache cache, AlignedBufferPool pool,
                AlignedBufferPool runPool) {
        this.file = Objects.requireNonNull(file, "file");
        this.capacity = capacity;
        this.segmentId = segmentId;
        this.cache = Objects.requireNonNull(cache, "cache");
        this.pool = Objects.requireNonNull(pool, "pool");
        this.runPool = Objects.requireNonNull(runPool, "runPool");
        this.chunkBytes = Math.max(pool.bufferBytes(), file.geometry().blockSize());
    }

    /**
     * Copies the file's bytes from {@code position} up to {@code end} or the end of its chunk, whichever
     * comes first, into {@code target}.
     *
     * @param zeroFrom the position from which the file is known to read as zeros
     * @return the number of bytes copied, at least 1 when {@code position < end}
     */
    int copyFromFile(int position, int end, ByteBuf target, int zeroFrom) throws IOException {
        int chunk = position / chunkBytes;
        int chunkStart = chunk * chunkBytes;
        int chunkEnd = (int) Math.min(capacity, (long) chunkStart + chunkBytes);
        int stop = Math.min(end, chunkEnd);
        if (chunkStart >= zeroFrom) {
            target.writeZero(stop - position);
            return stop - position;
        }
        byte[] data = cache.get(segmentId, chunk);
        if (data == null && end - chunkStart >= 2 * chunkBytes && runPool.bufferBytes() >= 2 * chunkBytes) {
            return copyRun(chunkStart, position, end, target, zeroFrom);
        }
        if (data == null) {
            data = readChunk(chunkStart, chunkEnd - chunkStart);
            cache.put(segmentId, chunk, data);
        }
        target.writeBytes(data, position - chunkStart, stop - position);
        return stop - position;
    }

    /** Drops the cached chunks that overlap {@code [from, to)}. */
    void invalidate(int from, int to) {
        if (to > from) {
            cache.invalidate(segmentId, from / chunkBytes, (to - 1) / chunkBytes);
        }
    }

    /** Drops every cached chunk of this segment. */
    void invalidateAll() {
        cache.invalidateAll(segmentId);
    }

    /**
     * A read of several chunks: one positional read of up to a run buffer's bytes straight into
     * {@code target}, not cached (such reads are one-off passes, which would only push out the chunks that
     * are read again). The cache and the file agree, so chunks of the run that are cached are simply
     * read again.
     */
    private int copyRun(int chunkStart, int position, int end, ByteBuf target, int zeroFrom) throws IOException {
        int stop = (int) Math.min(Math.min(end, capacity), Math.min((long) chunkStart + runPool.bufferBytes(),
                Math.max((long) chunkStart + chunkBytes, zeroFrom)));
        int length = file.geometry().alignUp(stop - chunkStart);
        ByteBuffer buffer = runPool.acquire(file.geometry());
        try {
            buffer.limit(Math.min(length, buffer.capacity()));
            file.readFully(buffer, chunkStart);
            buffer.flip().position(position - chunkStart).limit(stop - chunkStart);
            target.writeBytes(buffer);
            return stop - position;
        } finally {
            runPool.release(buffer);
        }
    }

    private byte[] readChunk(int chunkStart, int length) throws IOException {
        ByteBuffer buffer = pool.acquire(file.geometry());
        try {
            buffer.limit(length);
            file.readFully(buffer, chunkStart);
            byte[] data = new byte[length];
            buffer.flip().get(data);
            return data;
        } finally {
            pool.release(buffer);
        }
    }
}
