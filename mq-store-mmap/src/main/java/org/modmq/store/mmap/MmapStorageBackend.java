package org.modmq.store.mmap;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
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
 * Opens segments as whole-file {@code READ_WRITE} mappings. The file descriptor is closed right after
 * mapping; the mapping alone keeps the data reachable.
 *
 * <p>Thread-safe. Keeps the segments it opened that are still open so that {@link #close()} closes them.
 */
final class MmapStorageBackend implements StorageBackend {

    private static final Logger LOG = LoggerFactory.getLogger(MmapStorageBackend.class);

    private final boolean warmAtOpen;
    private final Set<MmapSegment> openSegments = ConcurrentHashMap.newKeySet();
    private volatile boolean closed;

    MmapStorageBackend(boolean warmAtOpen) {
        this.warmAtOpen = warmAtOpen;
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
        MmapSegment segment = new MmapSegment(file, map(file, capacity), openSegments::remove);
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

    private static MappedByteBuffer map(Path file, int capacity) {
        try (FileChannel channel = openChannel(file, capacity)) {
            long size = channel.size();
            if (size != capacity) {
                throw new IllegalArgumentException("segment " + file + " is " + size + " bytes, not the requested "
                        + capacity);
            }
            return channel.map(FileChannel.MapMode.READ_WRITE, 0, capacity);
        } catch (IOException e) {
            throw new StorageException("cannot map segment " + file + ": " + e, e);
        }
    }

    private static FileChannel openChannel(Path file, int capacity) throws IOException {
        try {
            FileChannel created = FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.READ,
                    StandardOpenOption.WRITE);
            try {
                // Sparse extension: unwritten bytes read as zero without writing them.
                created.write(ByteBuffer.allocate(1), capacity - 1L);
                return created;
            } catch (IOException e) {
                closeAfterFailure(created, e);
                throw e;
            }
        } catch (FileAlreadyExistsException exists) {
            return FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE);
        }
    }

    private static void closeAfterFailure(FileChannel channel, IOException failure) {
        try {
            channel.close();
        } catch (IOException e) {
            failure.addSuppressed(e);
        }
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
