package org.modmq.store.recovery;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.Objects;
import java.util.OptionalLong;
import org.modmq.api.spi.storage.StorageException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code <root>/truncating}: present while a replica cuts its log back, so a crash in the middle is
 * finished at the next open (zeroing a segment's tail is not atomic: a half-zeroed tail would still
 * hold whole records that recovery accepts). 16 bytes, big-endian: the target offset, then its bitwise
 * complement as a check. Written to a temporary file, forced and renamed. Thread-safe (synchronized).
 */
public final class TruncationMarker {

    private static final Logger LOG = LoggerFactory.getLogger(TruncationMarker.class);
    private final Path file;

    public TruncationMarker(Path file) {
        this.file = Objects.requireNonNull(file, "file");
    }

    /** The target of an unfinished truncation, if one is recorded. */
    public synchronized OptionalLong pending() {
        if (!Files.exists(file)) {
            return OptionalLong.empty();
        }
        try {
            ByteBuffer bytes = ByteBuffer.wrap(Files.readAllBytes(file));
            if (bytes.remaining() >= 16) {
                long target = bytes.getLong();
                if (bytes.getLong() == ~target && target >= 0) {
                    return OptionalLong.of(target);
                }
            }
            // A marker is renamed into place whole; a damaged one cannot name a target to trust.
            LOG.warn("{} is damaged; ignoring it", file);
            return OptionalLong.empty();
        } catch (IOException e) {
            throw new StorageException("cannot read " + file, e);
        }
    }

    /** Records that the log is about to be cut back to {@code target}; durable when this returns. */
    public synchronized void begin(long target) {
        Path temp = file.resolveSibling(file.getFileName() + ".tmp");
        ByteBuffer bytes = ByteBuffer.allocate(16).putLong(target).putLong(~target).flip();
        try (FileChannel channel = FileChannel.open(temp, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING)) {
            while (bytes.hasRemaining()) {
                channel.write(bytes);
            }
            channel.force(true);
        } catch (IOException e) {
            throw new StorageException("cannot write " + temp, e);
        }
        try {
            Files.move(temp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException e) {
            throw new StorageException("cannot rename " + temp + " to " + file, e);
        }
    }

    /** The truncation is complete. */
    public synchronized void end() {
        try {
            Files.deleteIfExists(file);
        } catch (IOException e) {
            throw new StorageException("cannot delete " + file, e);
        }
    }
}
