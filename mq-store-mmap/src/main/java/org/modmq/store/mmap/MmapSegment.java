package org.modmq.store.mmap;

import io.netty.buffer.ByteBuf;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.MappedByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import org.modmq.api.spi.storage.Segment;
import org.modmq.api.spi.storage.StorageException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A segment file mapped whole. Writes are absolute puts into the mapping, reads are zero-copy
 * read-only views of it, flush is a range force of the mapping.
 *
 * <p>References: the open segment holds one, every read view one more, and each write, flush or warm
 * one for its duration, so that the mapping is never unmapped under a running access. When the count
 * drops to zero the mapping is unmapped and, after {@link #delete()}, the file removed.
 *
 * <p>Threads: as {@link Segment}: one writer ({@code write}, {@code flush}), any number of readers;
 * {@code close} and {@code delete} from any thread.
 */
final class MmapSegment implements Segment {

    private static final Logger LOG = LoggerFactory.getLogger(MmapSegment.class);

    private final Path path;
    private final MappedByteBuffer mapping;
    private final int capacity;
    private final Consumer<MmapSegment> onClose;
    private final AtomicInteger references = new AtomicInteger(1);
    /** Lowest position written since the last flush; bytes below it are forced already. */
    private final AtomicInteger dirtyFrom = new AtomicInteger(0);
    private volatile int durablePosition;
    private volatile boolean closed;
    private volatile boolean deleteOnRelease;
    private final AtomicBoolean fileRemoved = new AtomicBoolean();

    MmapSegment(Path path, MappedByteBuffer mapping, Consumer<MmapSegment> onClose) {
        this.path = path;
        this.mapping = mapping;
        this.capacity = mapping.capacity();
        this.onClose = onClose;
    }

    @Override
    public Path path() {
        return path;
    }

    @Override
    public int capacity() {
        return capacity;
    }

    @Override
    public void write(int position, ByteBuf source) {
        int length = source.readableBytes();
        checkRange("write", position, length);
        acquire("write to");
        try {
            // slice() and getBytes(int, ByteBuffer) leave both the mapping's and the source's indexes alone.
            source.getBytes(source.readerIndex(), mapping.slice(position, length));
            dirtyFrom.accumulateAndGet(position, Math::min);
        } catch (InternalError e) {
            // The JVM reports a SIGBUS on a mapping (device full under a sparse file, file truncated
            // by someone else) as an InternalError from the faulting access.
            throw new StorageException("cannot write " + length + " bytes at " + position + " of segment " + path,
                    new IOException(e));
        } finally {
            releaseReference();
        }
    }

    @Override
    public ByteBuf read(int position, int length) {
        checkRange("read", position, length);
        acquire("read from");
        boolean handedOut = false;
        try {
            ByteBuf view = new MmapView(mapping.slice(position, length), this).asReadOnly();
            handedOut = true;
            return view;
        } finally {
            if (!handedOut) {
                releaseReference();
            }
        }
    }

    @Override
    public void flush(int upTo) {
        if (upTo < 0 || upTo > capacity) {
            throw new IndexOutOfBoundsException("flush up to " + upTo + " is outside [0, " + capacity + "] of "
                    + path);
        }
        acquire("flush");
        // What is written at or above upTo stays dirty for the next flush.
        int from = dirtyFrom.getAndAccumulate(upTo, Math::max);
        try {
            if (from < upTo) {
                mapping.force(from, upTo - from);
            }
            if (upTo > durablePosition) {
                durablePosition = upTo;
            }
        } catch (UncheckedIOException e) {
            // Not forced: the range stays dirty, or the next flush would skip it and call it durable.
            dirtyFrom.accumulateAndGet(from, Math::min);
            throw new StorageException("cannot force segment " + path + ": " + e.getCause(), e.getCause());
        } finally {
            releaseReference();
        }
    }

    @Override
    public int durablePosition() {
        return durablePosition;
    }

    /** Faults every page into memory by reading it, leaving the content as it is. */
    @Override
    public void warm() {
        acquire("warm");
        try {
            mapping.load();
        } catch (InternalError e) {
            throw new StorageException("cannot load segment " + path + " into memory", new IOException(e));
        } finally {
            releaseReference();
        }
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
        }
        onClose.accept(this);
        releaseReference();
    }

    @Override
    public void delete() {
        deleteOnRelease = true;
        close();
        if (references.get() == 0) {
            // Closed earlier and already released: nothing else will remove the file.
            removeFile();
        }
    }

    /** References held: 1 for the open segment plus one per live view and running access. */
    int referenceCount() {
        return references.get();
    }

    private void checkRange(String operation, int position, int length) {
        if (position < 0 || length < 0 || position > capacity - length) {
            throw new IndexOutOfBoundsException(operation + " of " + length + " bytes at " + position
                    + " is outside [0, " + capacity + "] of " + path);
        }
    }

    /** Takes a reference for an access, refusing once the segment is closed. */
    private void acquire(String operation) {
        int count;
        do {
            count = references.get();
            if (count == 0) {
                throw closedException(operation);
            }
        } while (!references.compareAndSet(count, count + 1));
        if (closed) {
            releaseReference();
            throw closedException(operation);
        }
    }

    private IllegalStateException closedException(String operation) {
        return new IllegalStateException("cannot " + operation + " closed segment " + path);
    }

    /** Drops one reference; the last one unmaps the file and, after delete, removes it. */
    void releaseReference() {
        int left = references.decrementAndGet();
        if (left > 0) {
            return;
        }
        if (left < 0) {
            references.incrementAndGet();
            throw new IllegalStateException("segment " + path + " released more often than referenced");
        }
        if (!Unmapper.instance().unmap(mapping)) {
            LOG.debug("segment {} left for the garbage collector to unmap", path);
        }
        if (deleteOnRelease) {
            removeFile();
        }
    }

    private void removeFile() {
        if (!fileRemoved.compareAndSet(false, true)) {
            return;
        }
        try {
            Files.deleteIfExists(path);
        } catch (IOException e) {
            throw new StorageException("cannot delete segment " + path + ": " + e, e);
        }
    }
}
