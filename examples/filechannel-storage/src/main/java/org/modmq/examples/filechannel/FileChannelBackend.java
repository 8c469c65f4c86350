package org.modmq.examples.filechannel;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.modmq.api.spi.storage.Segment;
import org.modmq.api.spi.storage.StorageBackend;
import org.modmq.api.spi.storage.StorageException;

/** Opens {@link FileChannelSegment}s and closes those still open when it closes. Thread-safe. */
final class FileChannelBackend implements StorageBackend {

    private final Set<FileChannelSegment> open = ConcurrentHashMap.newKeySet();
    private volatile boolean closed;

    @Override
    public String name() {
        return FileChannelStorageProvider.NAME;
    }

    @Override
    public Segment open(Path file, int capacity) {
        if (capacity <= 0) {
            throw new IllegalArgumentException("capacity must be positive: " + capacity);
        }
        if (closed) {
            throw new IllegalStateException("backend is closed");
        }
        try {
            boolean existed = Files.exists(file);
            if (existed && Files.size(file) != capacity) {
                throw new IllegalArgumentException(file + " has " + Files.size(file) + " bytes, not " + capacity);
            }
            FileChannel channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.READ,
                    StandardOpenOption.WRITE);
            if (!existed) {
                // A sparse file of the full length: unwritten bytes read as zero.
                channel.write(java.nio.ByteBuffer.allocate(1), capacity - 1L);
            }
            FileChannelSegment segment = new FileChannelSegment(file, capacity, channel, open::remove);
            open.add(segment);
            return segment;
        } catch (IOException e) {
            throw new StorageException("cannot open segment " + file, e);
        }
    }

    @Override
    public void close() {
        closed = true;
        for (FileChannelSegment segment : open) {
            segment.close();
        }
    }
}
