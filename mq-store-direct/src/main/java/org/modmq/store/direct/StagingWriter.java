package org.modmq.store.direct;

import io.netty.buffer.ByteBuf;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Objects;

/**
 * The write side of one segment: an aligned staging buffer that is an exact image of the file's blocks
 * {@code [base, loadedEnd)} with every write applied, the not-yet-written ones included.
 *
 * <p>A write lands in the staging window {@code [base, base + buffer size)}. Blocks of the window up to
 * it that are not loaded yet are read from the file first (or zero-filled when the file is known to hold
 * only zeros there), except those the write replaces whole, so a partly written block is always
 * rewritten in full. A write outside the window, or more than {@value #MAX_GAP_READ} bytes past what
 * it has loaded, first writes the dirty blocks out and moves the window: a write below the window
 * therefore becomes a read-modify-write of its blocks. {@link #writeOut()} writes the dirty blocks with positional
 * O_DIRECT writes and keeps the window, so the tail block stays in memory and reads of recent data need
 * no I/O.
 *
 * <p>Not thread-safe: the owning segment serialises calls. The buffer is allocated on the first write.
 */
final class StagingWriter {

    /** Told of every range written out to the file, so that cached copies of it can be dropped. */
    @FunctionalInterface
    interface WriteOutListener {
        void wroteOut(int from, int to);
    }

    private static final int NONE = -1;
    /**
     * Most bytes read to keep the window contiguous up to a write beyond its loaded end; a write further
     * on moves the window instead (scattered writes, such as an index file's hash slots, would otherwise
     * read everything between them).
     */
    static final int MAX_GAP_READ = 64 * 1024;
    private static final byte[] ZEROS = new byte[64 * 1024];

    private final SegmentFile file;
    private final BlockGeometry geometry;
    private final int capacity;
    private final int bufferBytes;
    private final WriteOutListener listener;
    private ByteBuffer buffer;
    private int base;
    private int loadedEnd;
    private int dirtyStart = NONE;
    private int dirtyEnd;
    private int zeroFrom;

    /**
     * @param bufferBytes requested staging size; rounded down to whole blocks, at least one block, at
     *     most {@code capacity}
     * @param zeroFrom position from which the file is known to read as zeros ({@code capacity} when unknown)
     */
    StagingWriter(SegmentFile file, int capacity, int bufferBytes, int zeroFrom, WriteOutListener listener) {
        this.file = Objects.requireNonNull(file, "file");
        this.geometry = file.geometry();
        this.capacity = capacity;
        this.bufferBytes = Math.min(capacity, Math.max(geometry.blockSize(), geometry.alignDown(bufferBytes)));
        this.zeroFrom = zeroFrom;
        this.listener = Objects.requireNonNull(listener, "listener");
    }

    /** Stages the readable bytes of {@code source} at {@code position}; the caller checked the bounds. */
    void write(int position, ByteBuf source) throws IOException {
        int index = source.readerIndex();
        int remaining = source.readableBytes();
        int at = position;
        while (remaining > 0) {
            moveWindowTo(at);
            int chunk = Math.min(remaining, windowEnd() - at);
            loadAround(at, at + chunk);
            ByteBuffer target = buffer.duplicate();
            target.limit(at - base + chunk).position(at - base);
            source.getBytes(index, target);
            dirtyStart = dirtyStart == NONE ? at : Math.min(dirtyStart, at);
            dirtyEnd = Math.max(dirtyEnd, at + chunk);
            at += chunk;
            index += chunk;
            remaining -= chunk;
        }
    }

    /** Writes the dirty blocks to the file (not forced). Does nothing when none are dirty. */
    void writeOut() throws IOException {
        if (dirtyStart == NONE) {
            return;
        }
        int from = geometry.alignDown(dirtyStart);
        int to = geometry.alignUp(dirtyEnd);
        ByteBuffer source = buffer.duplicate();
        source.limit(to - base).position(from - base);
        file.writeFully(source, from);
        dirtyStart = NONE;
        dirtyEnd = 0;
        zeroFrom = Math.max(zeroFrom, to);
        listener.wroteOut(from, to);
    }

    boolean hasDirtyBytes() {
        return dirtyStart != NONE;
    }

    /**
     * Copies the staged bytes from {@code position} up to {@code end} (or the end of the staged region)
     * into {@code target}.
     *
     * @return the number of bytes copied, 0 when {@code position} is not staged
     */
    int copyStaged(int position, int end, ByteBuf target) {
        if (buffer == null || position < base || position >= loadedEnd) {
            return 0;
        }
        int stop = Math.min(end, loadedEnd);
        ByteBuffer source = buffer.duplicate();
        source.limit(stop - base).position(position - base);
        target.writeBytes(source);
        return stop - position;
    }

    /** The first staged position above {@code position}, or {@link Integer#MAX_VALUE} when there is none. */
    int stagedAbove(int position) {
        return buffer != null && loadedEnd > base && base > position ? base : Integer.MAX_VALUE;
    }

    /** The position from which the file is known to read as zeros. */
    int zeroFrom() {
        return zeroFrom;
    }

    /** Drops the buffer; dirty bytes must have been written out first. */
    void release() {
        buffer = null;
    }

    private int windowEnd() {
        return (int) Math.min(capacity, (long) base + bufferBytes);
    }

    private void moveWindowTo(int position) throws IOException {
        if (buffer == null) {
            buffer = geometry.allocate(bufferBytes);
        } else if (position >= base && position < windowEnd() && position - loadedEnd < MAX_GAP_READ) {
            return;
        } else {
            writeOut();
        }
        base = geometry.alignDown(position);
        loadedEnd = base;
    }

    /**
     * Makes the window hold the file's blocks up to {@code alignUp(writeTo)} before {@code [writeFrom,
     * writeTo)} is copied in. Blocks the write covers whole are not read: they are about to be replaced.
     */
    private void loadAround(int writeFrom, int writeTo) throws IOException {
        int to = geometry.alignUp(writeTo);
        if (to <= loadedEnd) {
            return;
        }
        int coveredFrom = Math.max(loadedEnd, geometry.alignUp(writeFrom));
        int coveredTo = geometry.alignDown(writeTo);
        if (coveredTo > coveredFrom) {
            fill(loadedEnd, coveredFrom);
            fill(coveredTo, to);
        } else {
            fill(loadedEnd, to);
        }
        loadedEnd = to;
    }

    /** Reads the file's blocks {@code [from, to)} into the window, as zeros where the file holds only zeros. */
    private void fill(int from, int to) throws IOException {
        if (to <= from) {
            return;
        }
        int diskEnd = Math.min(to, Math.max(from, geometry.alignUp(zeroFrom)));
        if (diskEnd > from) {
            ByteBuffer target = buffer.duplicate();
            target.limit(diskEnd - base).position(from - base);
            file.readFully(target, from);
        }
        ByteBuffer zeros = buffer.duplicate();
        zeros.limit(to - base).position(diskEnd - base);
        while (zeros.hasRemaining()) {
            zeros.put(ZEROS, 0, Math.min(ZEROS.length, zeros.remaining()));
        }
    }
}
