package org.modmq.store.direct;

import io.netty.buffer.ByteBufAllocator;
import java.util.Objects;

/**
 * What a backend lends each segment it opens: the allocator for read views, the shared read cache and
 * buffer pool, the staging size and the segment's cache identity. Immutable; the parts are thread-safe.
 *
 * @param allocator for read views handed to callers
 * @param cache the backend's read cache
 * @param pool the backend's aligned read buffers, one chunk each
 * @param runPool the backend's aligned buffers for reads of many chunks at once
 * @param writeBufferBytes requested staging buffer size
 * @param segmentId unique within the backend, keys the cache
 */
record SegmentResources(ByteBufAllocator allocator, ReadCache cache, AlignedBufferPool pool,
                        AlignedBufferPool runPool, int writeBufferBytes, long segmentId) {

    SegmentResources {
        Objects.requireNonNull(allocator, "allocator");
        Objects.requireNonNull(cache, "cache");
        Objects.requireNonNull(pool, "pool");
        Objects.requireNonNull(runPool, "runPool");
    }
}
