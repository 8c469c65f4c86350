package org.modmq.store.direct;

import java.nio.ByteBuffer;

/**
 * The block size of one file store and the alignment arithmetic that O_DIRECT needs: every buffer
 * address, file position and length of an I/O is a multiple of it. Immutable.
 *
 * @param blockSize bytes, a power of two
 */
record BlockGeometry(int blockSize) {

    BlockGeometry {
        if (blockSize <= 0 || Integer.bitCount(blockSize) != 1) {
            throw new IllegalArgumentException("block size " + blockSize + " is not a positive power of two");
        }
    }

    int alignDown(int position) {
        return position & -blockSize;
    }

    /** Rounds up; the caller keeps {@code position} at most {@code Integer.MAX_VALUE - blockSize + 1}. */
    int alignUp(int position) {
        return (position + blockSize - 1) & -blockSize;
    }

    boolean isAligned(long value) {
        return (value & (blockSize - 1)) == 0;
    }

    /** A direct buffer of {@code bytes} (a multiple of the block size) whose address is block-aligned. */
    ByteBuffer allocate(int bytes) {
        if (bytes <= 0 || !isAligned(bytes)) {
            throw new IllegalArgumentException(bytes + " bytes is not a positive multiple of the block size "
                    + blockSize);
        }
        ByteBuffer aligned = ByteBuffer.allocateDirect(bytes + blockSize).alignedSlice(blockSize);
        return aligned.limit(bytes).slice();
    }
}
