package org.modmq.store.direct;

import java.nio.ByteBuffer;
import java.util.ArrayDeque;

/**
 * A small pool of block-aligned direct buffers for reads, so that reading does not allocate direct
 * memory each time. When the pool is empty, or a file store needs a larger alignment than the pooled
 * buffers have, {@link #acquire} allocates a fresh buffer that {@link #release} then drops. Thread-safe.
 */
final class AlignedBufferPool {

    private final int bufferBytes;
    private final int maxPooled;
    private final ArrayDeque<ByteBuffer> free = new ArrayDeque<>();

    /**
     * @param bufferBytes size of each pooled buffer, a power of two
     * @param maxPooled buffers kept for reuse
     */
    AlignedBufferPool(int bufferBytes, int maxPooled) {
        if (bufferBytes <= 0 || Integer.bitCount(bufferBytes) != 1) {
            throw new IllegalArgumentException("buffer size " + bufferBytes + " is not a power of two");
        }
        this.bufferBytes = bufferBytes;
        this.maxPooled = maxPooled;
    }

    int bufferBytes() {
        return bufferBytes;
    }

    /**
     * A cleared buffer of at least {@code max(bufferBytes, block size)} bytes aligned for
     * {@code geometry}. The caller hands it back with {@link #release}.
     */
    ByteBuffer acquire(BlockGeometry geometry) {
        if (geometry.blockSize() <= bufferBytes) {
            ByteBuffer pooled;
            synchronized (free) {
                pooled = free.pollFirst();
            }
            if (pooled != null && pooled.alignmentOffset(0, geometry.blockSize()) == 0) {
                return pooled.clear();
            }
            if (pooled != null) {
                release(pooled);
            }
        }
        return geometry.allocate(Math.max(bufferBytes, geometry.blockSize()));
    }

    /** Returns a buffer from {@link #acquire}; it is kept when there is room and it has the pooled size. */
    void release(ByteBuffer buffer) {
        if (buffer.capacity() != bufferBytes) {
            return;
        }
        synchronized (free) {
            if (free.size() < maxPooled) {
                free.addFirst(buffer);
            }
        }
    }
}
