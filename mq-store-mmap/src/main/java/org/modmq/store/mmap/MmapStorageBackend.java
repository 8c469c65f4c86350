package org.modmq.store.mmap;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.modmq.api.spi.storage.Segment;
import org.modmq.api.spi.storage.StorageBackend;
import org.modmq.api.spi.storage.StorageException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Opens segments whose files are mapped {@code READ_WRITE} in chunks of at most {@link #CHUNK_SIZE}
 * bytes, each on first access; a shared {@link MappingBudget} unmaps idle, flushed chunks beyond
 * {@link #IDLE_MAPPING_BUDGET} bytes, so the process's resident set does not grow with the log. A chunk
 * is mapped through a channel opened and closed around the map call; only a segment that took a write of
 * {@link #SYSCALL_WRITE_BYTES} or more keeps a descriptor open for such writes (the CommitLog's, under
 * batch sends).
 *
 * <p>Thread-safe. Keeps the segments it opened that are still open so that {@link #close()} closes them.
 */
final class MmapStorageBackend implements StorageBackend {

    private static final Logger LOG = LoggerFactory.getLogger(MmapStorageBackend.class);

    /**
     * Bytes per chunk mapping (a smaller file is one chunk). Small chunks keep the budget's accounting
     * close to the pages really touched and let it hold many read positions at once: one per lagging
     * consumer reading sequentially; a chunk is mapped again only every 2 MiB of such a read.
     */
    static final int CHUNK_SIZE = 2 * 1024 * 1024;

    /**
     * Bytes of idle, flushed chunk mappings kept for reuse. Reads of data within the most recent
     * ~128 MiB touched find it mapped; reads further back map their chunk again and fault its pages in
     * from the page cache (JMH sequential re-reads of a 240 MB log: ~70 % of the throughput of keeping
     * everything mapped).
     */
    static final long IDLE_MAPPING_BUDGET = 128L * 1024 * 1024;

    /**
     * Writes of at least this many bytes use {@code pwrite}: a batch's append (32 × 1 KiB messages is
     * ~33 KiB), not a single message's, whose one system call would cost more than the page fault it
     * saves (async single sends lost ~20 % throughput with every append written that way).
     */
    static final int SYSCALL_WRITE_BYTES = 16 * 1024;

    private final boolean warmAtOpen;
    private final int chunkSize;
    private final int syscallWriteBytes;
    private final MappingBudget budget;
    private final Set<MmapSegment> openSegments = ConcurrentHashMap.newKeySet();
    private volatile boolean closed;

    MmapStorageBackend(boolean warmAtOpen) {
        this(warmAtOpen, CHUNK_SIZE, IDLE_MAPPING_BUDGET);
    }

    MmapStorageBackend(boolean warmAtOpen, int chunkSize, long idleBytes) {
        this(warmAtOpen, chunkSize, idleBytes, SYSCALL_WRITE_BYTES);
    }

    /**
     * @param chunkSize bytes per chunk mapping, > 0
     * @param idleBytes bytes of idle, clean chunk mappings kept mapped, >= 0
     * @param syscallWriteBytes writes of at least this many bytes use {@code pwrite}; 0: every write goes
     *        through the mapping
     */
    MmapStorageBackend(boolean warmAtOpen, int chunkSize, long idleBytes, int syscallWriteBytes) {
        if (chunkSize <= 0) {
            throw new IllegalArgumentException("chunk size must be positive, was " + chunkSize);
        }
        if (syscallWriteBytes < 0) {
            throw new IllegalArgumentException("syscall write bytes must not be negative, was " + syscallWriteBytes);
        }
        this.warmAtOpen = warmAtOpen;
        this.chunkSize = chunkSize;
        this.syscallWriteBytes = syscallWriteBytes;
        this.budget = new MappingBudget(idleBytes);
    }

    @Override
    public String name() {
        return MmapStorageBackendProvider.NAME;
    }

    @Override
    public Segment open(Path file, int capacity) {
        Objects.requireNonNull(file, "file");
        if (capacity <= 0) {
            throw new IllegalArgumentException("segment capacity must be positive, was " + capacity + " for " + file);
        }
        ensureOpen();
        boolean created = prepare(file, capacity);
        MmapSegment segment = new MmapSegment(file, capacity, created, chunkSize, budget, syscallWriteBytes,
                openSegments::remove);
        openSegments.add(segment);
        // A close() racing with this open either sees the segment in the set or is seen here.
        if (closed) {
            segment.close();
            throw new IllegalStateException("storage backend closed while opening " + file);
        }
        if (warmAtOpen) {
            segment.warm();
        }
        return segment;
    }

    /**
     * Creates the file (sparse) or checks the existing one's size.
     *
     * @return whether the file was created
     */
    private static boolean prepare(Path file, int capacity) {
        try {
            boolean created;
            FileChannel opened;
            try {
                opened = FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.READ,
                        StandardOpenOption.WRITE);
                created = true;
            } catch (FileAlreadyExistsException exists) {
                opened = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE);
                created = false;
            }
            try (FileChannel channel = opened) {
                if (created) {
                    // Sparse extension: unwritten bytes read as zero without writing them.
                    channel.write(ByteBuffer.allocate(1), capacity - 1L);
                }
                long size = channel.size();
                if (size != capacity) {
                    throw new IllegalArgumentException("segment " + file + " is " + size
                            + " bytes, not the requested " + capacity);
                }
            }
            return created;
        } catch (IOException e) {
            throw new StorageException("cannot open segment " + file + ": " + e, e);
        }
    }

    /** The budget shared by this backend's segments. */
    MappingBudget budget() {
        return budget;
    }

    private void ensureOpen() {
        if (closed) {
            throw new IllegalStateException("storage backend '" + name() + "' is closed");
        }
    }

    /** Closes every segment still open, continuing past failures; read views stay valid. Idempotent. */
    @Override
    public void close() {
        closed = true;
        RuntimeException first = null;
        for (MmapSegment segment : List.copyOf(openSegments)) {
            try {
                segment.close();
            } catch (RuntimeException e) {
                if (first == null) {
                    first = e;
                } else {
                    first.addSuppressed(e);
                }
            }
        }
        if (first != null) {
            LOG.warn("closing the mmap storage backend failed", first);
            throw first;
        }
    }
}
