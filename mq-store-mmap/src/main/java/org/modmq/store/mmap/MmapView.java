package org.modmq.store.mmap;

import io.netty.buffer.UnpooledByteBufAllocator;
import io.netty.buffer.UnpooledDirectByteBuf;
import io.netty.util.ResourceLeakDetector;
import io.netty.util.ResourceLeakDetectorFactory;
import io.netty.util.ResourceLeakTracker;
import java.nio.ByteBuffer;

/**
 * A direct buffer over a slice of one of a segment's mappings that holds one reference on the segment
 * and one on the mapping and gives both back when the buffer is deallocated. Never handed out as is: callers get
 * {@link #asReadOnly()} of it, which shares this reference count.
 *
 * <p>Views are tracked by their own Netty leak detector, so a view never released is reported as a
 * {@code LEAK:} naming this class.
 *
 * <p>Reference counting is thread-safe, as for every Netty buffer.
 */
final class MmapView extends UnpooledDirectByteBuf {

    private static final ResourceLeakDetector<MmapView> LEAKS =
            ResourceLeakDetectorFactory.instance().newResourceLeakDetector(MmapView.class);

    private final MmapSegment segment;
    private final SegmentMapping mapping;
    private final ResourceLeakTracker<MmapView> leak;

    /**
     * @param slice a writable slice of the mapping, exactly the view's bytes
     * @param segment the segment whose reference the caller already took for this view
     * @param mapping the mapping under {@code slice}, whose reference the caller already took for this view
     */
    MmapView(ByteBuffer slice, MmapSegment segment, SegmentMapping mapping) {
        super(UnpooledByteBufAllocator.DEFAULT, slice, slice.remaining());
        this.segment = segment;
        this.mapping = mapping;
        this.leak = LEAKS.track(this);
    }

    @Override
    protected void deallocate() {
        try {
            super.deallocate();
            if (leak != null) {
                leak.close(this);
            }
        } finally {
            try {
                mapping.release();
            } finally {
                segment.releaseReference();
            }
        }
    }
}
