package org.modmq.store.recovery;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.Objects;
import org.modmq.api.spi.storage.StorageException;

/**
 * Reads and writes {@code <root>/checkpoint}: a 4096-byte file whose first 48 bytes are the six int64
 * of {@link Checkpoint} (RocketMQ's five, then modmq's logics flushed offset). Written to a temporary file, forced, then renamed over the old one.
 * Thread-safe (synchronized writes).
 */
public final class CheckpointFile {

    private static final int SIZE = 4096;
    private final Path file;

    public CheckpointFile(Path file) {
        this.file = Objects.requireNonNull(file, "file");
    }

    /** The stored checkpoint, or {@link Checkpoint#EMPTY} when there is none or it is short. */
    public Checkpoint read() {
        try {
            if (!Files.exists(file)) {
                return Checkpoint.EMPTY;
            }
            ByteBuffer bytes = ByteBuffer.wrap(Files.readAllBytes(file));
            if (bytes.remaining() < 40) {
                return Checkpoint.EMPTY;
            }
            return new Checkpoint(bytes.getLong(), bytes.getLong(), bytes.getLong(), bytes.getLong(), bytes.getLong(),
                    bytes.getLong());
        } catch (IOException e) {
            throw new StorageException("cannot read " + file, e);
        }
    }

    public synchronized void write(Checkpoint checkpoint) {
        Path temp = file.resolveSibling(file.getFileName() + ".tmp");
        ByteBuffer bytes = ByteBuffer.allocate(SIZE);
        bytes.putLong(checkpoint.physicMsgTimestamp()).putLong(checkpoint.logicsMsgTimestamp())
                .putLong(checkpoint.indexMsgTimestamp()).putLong(checkpoint.masterFlushedOffset())
                .putLong(checkpoint.confirmPhyOffset()).putLong(checkpoint.logicsFlushedOffset()).clear();
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
}
