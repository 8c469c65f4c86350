package org.modmq.store.direct;

import io.netty.buffer.ByteBufAllocator;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.channels.FileChannel;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Objects;
import java.util.Map;
import org.modmq.api.spi.storage.Segment;
import org.modmq.api.spi.storage.StorageBackend;
import org.modmq.api.spi.storage.StorageException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Opens {@link DirectSegment}s. Owns the read cache and the aligned read-buffer pool its segments share.
 * Thread-safe: opening and closing hold the backend's monitor.
 */
final class DirectStorageBackend implements StorageBackend {

    private static final Logger LOG = LoggerFactory.getLogger(DirectStorageBackend.class);

    private static final int READ_BUFFER_BYTES = 64 * 1024;
    private static final int POOLED_READ_BUFFERS = 8;
    /** Reads of many chunks at once (a recovery walk, an index file's slots) go through these. */
    private static final int RUN_BUFFER_BYTES = 1024 * 1024;
    private static final int POOLED_RUN_BUFFERS = 2;

    private final DirectConfig config;
    private final ByteBufAllocator allocator;
    private final ChannelOpener opener;
    private final ReadCache cache;
    private final AlignedBufferPool pool = new AlignedBufferPool(READ_BUFFER_BYTES, POOLED_READ_BUFFERS);
    private final AlignedBufferPool runPool = new AlignedBufferPool(RUN_BUFFER_BYTES, POOLED_RUN_BUFFERS);
    private final Map<Path, DirectSegment> open = new LinkedHashMap<>();
    private long nextSegmentId;
    private boolean closed;

    DirectStorageBackend(DirectConfig config, ByteBufAllocator allocator, ChannelOpener opener) {
        this.config = Objects.requireNonNull(config, "config");
        this.allocator = Objects.requireNonNull(allocator, "allocator");
        this.opener = Objects.requireNonNull(opener, "opener");
        this.cache = new ReadCache(config.readCacheBytes());
    }

    @Override
    public String name() {
        return DirectStorageBackendProvider.NAME;
    }

    /** True: written blocks wait in a segment's staging buffer until it is flushed or its window moves. */
    @Override
    public boolean holdsWritesInProcess() {
        return true;
    }

    /**
     * {@inheritDoc}
     *
     * <p>The direct backend also requires {@code capacity} to be a multiple of the block size of the
     * file's file store (else {@link IllegalArgumentException}), creates missing parent directories, and
     * refuses with {@link IllegalStateException} to open a file that one of its segments holds open:
     * two segments would each stage their own copy of the tail block.
     */
    @Override
    public synchronized Segment open(Path file, int capacity) {
        Objects.requireNonNull(file, "file");
        if (closed) {
            throw new IllegalStateException("storage backend 'direct' is closed; cannot open " + file);
        }
        if (capacity <= 0) {
            throw new IllegalArgumentException("capacity " + capacity + " of " + file + " is not positive");
        }
        Path absolute = file.toAbsolutePath().normalize();
        if (open.containsKey(absolute)) {
            throw new IllegalStateException("segment file " + file
                    + " is already open in this backend; close it first");
        }
        BlockGeometry geometry = DirectIoProbe.geometryOf(absolute.getParent());
        if (!geometry.isAligned(capacity)) {
            throw new IllegalArgumentException("capacity " + capacity + " of " + file
                    + " is not a multiple of the block size " + geometry.blockSize()
                    + " of its file store, which direct I/O requires");
        }
        boolean created = createIfMissing(file, capacity);
        FileChannel channel;
        try {
            channel = opener.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE);
        } catch (IOException e) {
            throw new StorageException("cannot open " + file + " for direct I/O: " + e, e);
        } catch (UnsupportedOperationException e) {
            throw new StorageException("cannot open " + file + " for direct I/O: " + e, new IOException(e));
        }
        SegmentResources resources = new SegmentResources(allocator, cache, pool, runPool, config.writeBufferBytes(),
                nextSegmentId++);
        DirectSegment segment = new DirectSegment(new SegmentFile(file, channel, geometry), capacity, resources,
                created ? 0 : capacity, () -> closed(absolute));
        open.put(absolute, segment);
        return segment;
    }

    /** Closes every segment still open; keeps going after a failure and throws the first. Idempotent. */
    @Override
    public void close() {
        List<DirectSegment> segments;
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
            segments = new ArrayList<>(open.values());
        }
        RuntimeException failure = null;
        for (DirectSegment segment : segments) {
            try {
                segment.close();
            } catch (StorageException | IllegalStateException e) {
                if (failure == null) {
                    failure = e;
                } else {
                    failure.addSuppressed(e);
                }
            }
        }
        if (failure != null) {
            throw failure;
        }
    }

    /** Segments open now (tests). */
    synchronized int openSegments() {
        return open.size();
    }

    /** The shared read cache (tests). */
    ReadCache cache() {
        return cache;
    }

    private synchronized void closed(Path absolute) {
        open.remove(absolute);
    }

    /** @return true when this call created the file, which then reads as zeros everywhere */
    private static boolean createIfMissing(Path file, int capacity) {
        try {
            if (!Files.exists(file)) {
                try {
                    Files.createFile(file);
                    try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "rw")) {
                        raf.setLength(capacity);
                    }
                    syncDirectory(file.toAbsolutePath().getParent());
                    return true;
                } catch (FileAlreadyExistsException e) {
                    // Another process created it between the check and the create: treat it as existing.
                    return checkLength(file, capacity);
                }
            }
            return checkLength(file, capacity);
        } catch (IOException e) {
            throw new StorageException("cannot create segment file " + file + ": " + e, e);
        }
    }

    /** Makes the new directory entry durable, so a flushed segment does not vanish in a crash. */
    private static void syncDirectory(Path directory) {
        try (FileChannel channel = FileChannel.open(directory, StandardOpenOption.READ)) {
            channel.force(true);
        } catch (IOException e) {
            // Some file systems refuse fsync on a directory; the file's own data is still forced on flush.
            LOG.warn("cannot sync directory {} after creating a segment file in it", directory, e);
        }
    }

    private static boolean checkLength(Path file, int capacity) throws IOException {
        long length = Files.size(file);
        if (length != capacity) {
            throw new IllegalArgumentException("segment file " + file + " is " + length
                    + " bytes long, not the requested capacity " + capacity);
        }
        return false;
    }
}
