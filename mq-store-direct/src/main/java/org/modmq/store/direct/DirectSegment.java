package org.modmq.store.direct;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Objects;
import org.modmq.api.spi.storage.Segment;
import org.modmq.api.spi.storage.StorageException;

/**
 * A {@link Segment} over one file opened with O_DIRECT. Writes go to a {@link StagingWriter}; reads come
 * from its staged blocks when they cover the range and otherwise from the file through a
 * {@link ChunkReader}. Read views are heap copies from the backend's allocator, so they stay valid after
 * the segment is closed or deleted and never pin the file.
 *
 * <p>Thread-safe: every operation holds the segment's monitor, which also gives readers the
 * happens-before edge to the staged bytes. {@link #durablePosition()} reads a volatile field.
 */
final class DirectSegment implements Segment {

    private final SegmentFile file;
    private final int capacity;
    private final ByteBufAllocator allocator;
    private final StagingWriter writer;
    private final ChunkReader reader;
    private final Runnable onClose;
    private volatile int durablePosition;
    private int pendingFrom;
    private boolean closed;

    /**
     * @param zeroFrom position from which the new or existing file is known to read as zeros
     * @param onClose told once when the segment closes
     */
    DirectSegment(SegmentFile file, int capacity, SegmentResources resources, int zeroFrom,
                  Runnable onClose) {
        this.file = Objects.requireNonNull(file, "file");
        this.capacity = capacity;
        this.allocator = resources.allocator();
        this.reader = new ChunkReader(file, capacity, resources.segmentId(), resources.cache(), resources.pool(),
                resources.runPool());
        this.writer = new StagingWriter(file, capacity, resources.writeBufferBytes(), zeroFrom, reader::invalidate);
        this.onClose = Objects.requireNonNull(onClose, "onClose");
        // An existing file may hold bytes a previous segment wrote out without forcing them; the first
        // flush must force them as well.
        this.pendingFrom = zeroFrom == 0 ? Integer.MAX_VALUE : 0;
    }

    @Override
    public Path path() {
        return file.path();
    }

    @Override
    public int capacity() {
        return capacity;
    }

    @Override
    public synchronized void write(int position, ByteBuf source) {
        Objects.requireNonNull(source, "source");
        checkOpen();
        int length = source.readableBytes();
        checkRange(position, length);
        if (length == 0) {
            return;
        }
        try {
            writer.write(position, source);
        } catch (IOException e) {
            throw failure("write " + length + " bytes at " + position, e);
        }
        pendingFrom = Math.min(pendingFrom, position);
    }

    @Override
    public synchronized ByteBuf read(int position, int length) {
        checkOpen();
        checkRange(position, length);
        ByteBuf view = allocator.heapBuffer(length, length);
        boolean done = false;
        try {
            int at = position;
            int end = position + length;
            while (at < end) {
                int staged = writer.copyStaged(at, end, view);
                if (staged == 0) {
                    staged = reader.copyFromFile(at, Math.min(end, writer.stagedAbove(at)), view, writer.zeroFrom());
                }
                at += staged;
            }
            done = true;
            return view.asReadOnly();
        } catch (IOException e) {
            throw failure("read " + length + " bytes at " + position, e);
        } finally {
            if (!done) {
                view.release();
            }
        }
    }

    @Override
    public synchronized void flush(int upTo) {
        checkOpen();
        if (upTo < 0 || upTo > capacity) {
            throw new IndexOutOfBoundsException("flush up to " + upTo + " is outside [0, " + capacity + "] of "
                    + file.path());
        }
        if (pendingFrom < upTo) {
            try {
                writer.writeOut();
                file.force();
            } catch (IOException e) {
                throw failure("flush up to " + upTo, e);
            }
            pendingFrom = Integer.MAX_VALUE;
        }
        if (upTo > durablePosition) {
            durablePosition = upTo;
        }
    }

    @Override
    public int durablePosition() {
        return durablePosition;
    }

    /** Writes staged bytes out (not forced, as the SPI promises no durability on close) and closes the file. */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        IOException failure = null;
        try {
            writer.writeOut();
        } catch (IOException e) {
            failure = e;
        }
        writer.release();
        reader.invalidateAll();
        try {
            file.close();
        } catch (IOException e) {
            if (failure == null) {
                failure = e;
            } else {
                failure.addSuppressed(e);
            }
        }
        onClose.run();
        if (failure != null) {
            throw failure("close", failure);
        }
    }

    /** Closes, then removes the file at once: read views are copies and hold nothing of it. */
    @Override
    public void delete() {
        StorageException failure = null;
        try {
            close();
        } catch (StorageException e) {
            failure = e;
        }
        try {
            Files.deleteIfExists(file.path());
        } catch (IOException e) {
            StorageException deleteFailure = failure("delete", e);
            if (failure == null) {
                failure = deleteFailure;
            } else {
                failure.addSuppressed(deleteFailure);
            }
        }
        if (failure != null) {
            throw failure;
        }
    }

    @Override
    public String toString() {
        return "DirectSegment[" + file.path() + ", capacity " + capacity + ", durable " + durablePosition + "]";
    }

    private void checkOpen() {
        if (closed) {
            throw new IllegalStateException("segment " + file.path() + " is closed");
        }
    }

    private void checkRange(int position, int length) {
        if (position < 0 || length < 0 || (long) position + length > capacity) {
            throw new IndexOutOfBoundsException("range at " + position + " of " + length + " bytes is outside [0, "
                    + capacity + "] of " + file.path());
        }
    }

    private StorageException failure(String what, IOException cause) {
        return new StorageException("direct I/O failed to " + what + " of " + file.path() + ": " + cause, cause);
    }
}
