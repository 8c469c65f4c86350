package org.modmq.store.mmap;

import io.netty.buffer.ByteBuf;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.function.Consumer;
import org.modmq.api.spi.storage.Segment;
import org.modmq.api.spi.storage.StorageException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A segment file mapped in chunks of {@code chunkSize} bytes, each mapped on its first access and
 * unmapped again when the backend's {@link MappingBudget} retires it (idle and clean). Writes are
 * absolute puts into the chunk mappings, reads are zero-copy read-only views of one chunk's mapping
 * (or of a mapping of their own when they cross a chunk boundary), flush is a range force. Writes of
 * at least {@code syscallWriteBytes} go through a {@link PositionalWriter} instead (a batch's append).
 *
 * <p>Why chunks: a page touched through a mapping stays in the process's resident set for as long as
 * the mapping exists. With whole-file mappings the broker's resident set grew by every byte written
 * to or read from the log; with chunks retired once flushed and idle, it holds the chunks in use, the
 * ones waiting for a flush and the budget's idle reserve. The pages stay in the page cache.
 *
 * <p>References: the open segment holds one, every read view one more, and each write, flush or warm
 * one for its duration; the chunk mappings count their own (see {@link SegmentMapping}), so that no
 * mapping is unmapped under a running access or a view. When the segment's count drops to zero every
 * chunk still mapped is unmapped and, after {@link #delete()}, the file removed.
 *
 * <p>Threads: as {@link Segment}: one writer ({@code write}), one flusher, any number of readers;
 * {@code close} and {@code delete} from any thread.
 */
final class MmapSegment implements Segment {

    private static final Logger LOG = LoggerFactory.getLogger(MmapSegment.class);

    private final Path path;
    private final int capacity;
    private final int chunkSize;
    private final MappingBudget budget;
    /** Writes of at least this many bytes go through {@link #positional}; 0: none does. */
    private final int syscallWriteBytes;
    private final PositionalWriter positional;
    private final Consumer<MmapSegment> onClose;
    private final AtomicReferenceArray<SegmentMapping> chunks;
    /**
     * Per chunk, 1 while it may hold bytes not forced yet: set by every write into it, cleared by a
     * flush that covers it to its end. Lives here, not in the mapping, so it outlasts a retired mapping.
     */
    private final AtomicIntegerArray dirtyChunks;
    private final AtomicInteger references = new AtomicInteger(1);
    /** Lowest position written since the last flush; bytes below it are forced already. */
    private final AtomicInteger dirtyFrom = new AtomicInteger(0);
    private volatile int durablePosition;
    private volatile boolean closed;
    private volatile boolean deleteOnRelease;
    private final AtomicBoolean fileRemoved = new AtomicBoolean();

    /**
     * @param path an existing file of exactly {@code capacity} bytes
     * @param created whether the file was just created: an existing one may hold pages a previous
     *        process wrote and never forced, so its first flush forces every chunk it covers
     * @param chunkSize bytes per mapping, > 0
     * @param syscallWriteBytes writes of at least this many bytes use {@code pwrite}, not the mapping; 0: none
     */
    MmapSegment(Path path, int capacity, boolean created, int chunkSize, MappingBudget budget,
                int syscallWriteBytes, Consumer<MmapSegment> onClose) {
        this.path = path;
        this.capacity = capacity;
        this.chunkSize = chunkSize;
        this.budget = budget;
        this.syscallWriteBytes = syscallWriteBytes;
        this.positional = new PositionalWriter(path);
        this.onClose = onClose;
        int count = (int) ((capacity + (long) chunkSize - 1) / chunkSize);
        this.chunks = new AtomicReferenceArray<>(count);
        this.dirtyChunks = new AtomicIntegerArray(count);
        if (!created) {
            for (int i = 0; i < count; i++) {
                dirtyChunks.set(i, 1);
            }
        }
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
        if (syscallWriteBytes > 0 && length >= syscallWriteBytes) {
            writePositional(position, source, length);
            return;
        }
        try {
            int done = 0;
            while (done < length) {
                int at = position + done;
                SegmentMapping mapping = chunk(at / chunkSize);
                try {
                    int n = Math.min(length - done, mapping.end() - at);
                    // slice() and getBytes(int, ByteBuffer) leave the mapping's and the source's indexes alone.
                    source.getBytes(source.readerIndex() + done, mapping.buffer().slice(at - mapping.start(), n));
                    mapping.markWritten();
                    markDirty(mapping.chunk());
                    done += n;
                } finally {
                    mapping.release();
                }
            }
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

    /** A large write: one {@code pwrite}; the chunks it covers become dirty for the next flush. */
    private void writePositional(int position, ByteBuf source, int length) {
        try {
            positional.write(source, position);
            for (int index = position / chunkSize; index <= (position + length - 1) / chunkSize; index++) {
                markDirty(index);
            }
            dirtyFrom.accumulateAndGet(position, Math::min);
        } catch (IOException e) {
            throw new StorageException("cannot write " + length + " bytes at " + position + " of segment " + path
                    + ": " + e, e);
        } finally {
            releaseReference();
        }
    }

    /** Sets chunk {@code index}'s dirty bit (read first: the bit is set on almost every write). */
    private void markDirty(int index) {
        if (dirtyChunks.get(index) == 0) {
            dirtyChunks.set(index, 1);
        }
    }

    @Override
    public ByteBuf read(int position, int length) {
        checkRange("read", position, length);
        acquire("read from");
        SegmentMapping mapping = null;
        boolean handedOut = false;
        try {
            int first = Math.min(position / chunkSize, chunks.length() - 1);
            int last = length == 0 ? first : (position + length - 1) / chunkSize;
            // A read across a chunk boundary gets a mapping of exactly its bytes, unmapped with its view.
            mapping = first == last ? chunk(first) : SegmentMapping.single(path, position, length);
            ByteBuf view = new MmapView(mapping.buffer().slice(position - mapping.start(), length), this, mapping)
                    .asReadOnly();
            handedOut = true;
            return view;
        } finally {
            if (!handedOut) {
                if (mapping != null) {
                    mapping.release();
                }
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
                forceChunks(from, upTo);
            }
            if (upTo > durablePosition) {
                durablePosition = upTo;
            }
        } catch (RuntimeException e) {
            // Not forced (the force or the mapping of a chunk failed): the range stays dirty, or the
            // next flush would skip it and call it durable.
            dirtyFrom.accumulateAndGet(from, Math::min);
            throw e;
        } finally {
            releaseReference();
        }
        budget.trim();
    }

    /**
     * Forces {@code [from, upTo)} chunk by chunk, skipping chunks with nothing to force. A chunk's dirty
     * bit is cleared only once its mapping is held, and set again when its force fails.
     */
    private void forceChunks(int from, int upTo) {
        for (int index = from / chunkSize; index <= (upTo - 1) / chunkSize; index++) {
            if (dirtyChunks.get(index) == 0) {
                continue;
            }
            int start = index * chunkSize;
            int end = Math.min(capacity, start + chunkSize);
            SegmentMapping mapping = chunk(index);
            try {
                // Cleared before the force, so that a write racing with it sets it again; only a flush up
                // to the chunk's end leaves nothing behind in it.
                if (upTo >= end) {
                    dirtyChunks.set(index, 0);
                }
                int at = Math.max(from, start);
                // msync of the range: on Linux it writes back every dirty page of that file range, also
                // pages written through an earlier mapping of the chunk that was retired since.
                mapping.buffer().force(at - start, Math.min(upTo, end) - at);
            } catch (UncheckedIOException e) {
                dirtyChunks.set(index, 1);
                throw new StorageException("cannot force segment " + path + ": " + e.getCause(), e.getCause());
            } finally {
                mapping.release();
            }
        }
    }

    @Override
    public int durablePosition() {
        return durablePosition;
    }

    /** Faults every page into the page cache by reading it, chunk by chunk, leaving the content as it is. */
    @Override
    public void warm() {
        acquire("warm");
        try {
            for (int i = 0; i < chunks.length(); i++) {
                SegmentMapping mapping = chunk(i);
                try {
                    mapping.buffer().load();
                } finally {
                    mapping.release();
                }
            }
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

    /** Chunks mapped right now. */
    int mappedChunks() {
        int count = 0;
        for (int i = 0; i < chunks.length(); i++) {
            if (chunks.get(i) != null) {
                count++;
            }
        }
        return count;
    }

    /** Whether chunk {@code index} may hold bytes written and not forced yet. */
    boolean dirty(int index) {
        return dirtyChunks.get(index) != 0;
    }

    /**
     * Takes chunk {@code mapping} out of the chunk table and drops the table's reference, if it is still
     * there. Called by the budget.
     *
     * @return whether this call retired it
     */
    boolean retire(SegmentMapping mapping) {
        if (!chunks.compareAndSet(mapping.chunk(), mapping, null)) {
            return false;
        }
        budget.removed(mapping);
        mapping.release();
        return true;
    }

    /** The mapping of chunk {@code index} with a reference for the caller, mapped now if it is not. */
    private SegmentMapping chunk(int index) {
        SegmentMapping mapping = chunks.get(index);
        if (mapping == null || !mapping.tryAcquire()) {
            mapping = install(index);
        }
        mapping.touch(budget.epoch());
        return mapping;
    }

    private SegmentMapping install(int index) {
        SegmentMapping created;
        synchronized (chunks) {
            SegmentMapping present = chunks.get(index);
            if (present != null && present.tryAcquire()) {
                return present;
            }
            int start = index * chunkSize;
            created = SegmentMapping.chunk(this, index, start, Math.min(chunkSize, capacity - start));
            // A mapping in the table always holds the table's reference: a retired one is out of the
            // table before its reference goes, so present (if any) is unreachable otherwise.
            chunks.set(index, created);
        }
        budget.installed(created);
        return created;
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

    /** Drops one reference; the last one unmaps every chunk still mapped and, after delete, removes the file. */
    void releaseReference() {
        int left = references.decrementAndGet();
        if (left > 0) {
            return;
        }
        if (left < 0) {
            references.incrementAndGet();
            throw new IllegalStateException("segment " + path + " released more often than referenced");
        }
        for (int i = 0; i < chunks.length(); i++) {
            SegmentMapping mapping = chunks.getAndSet(i, null);
            if (mapping != null) {
                budget.removed(mapping);
                mapping.release();
            }
        }
        try {
            positional.close();
        } catch (IOException e) {
            // The last reference may be a reader's view: its release must not fail; the bytes were written.
            LOG.warn("closing the write channel of segment {} failed: {}", path, e.toString());
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
