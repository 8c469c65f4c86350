package org.modmq.broker.metadata;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.Objects;
import java.util.Optional;
import org.modmq.remoting.protocol.Json;
import org.modmq.remoting.protocol.JsonBodyException;

/**
 * One metadata JSON file, replaced atomically: the new content goes to {@code name.tmp}, is forced to
 * disk, renamed over {@code name}, and the directory is forced. A crash at any point leaves either the
 * old or the new file whole; a stale {@code .tmp} is ignored and overwritten. Not thread-safe: the
 * owning table serialises its writes.
 */
public final class AtomicJsonFile {

    private final Path path;
    private final Path temp;

    public AtomicJsonFile(Path path) {
        this.path = Objects.requireNonNull(path, "path");
        this.temp = path.resolveSibling(path.getFileName() + ".tmp");
    }

    public Path path() {
        return path;
    }

    /**
     * The parsed file, or empty when it does not exist.
     *
     * @throws JsonBodyException naming the file when it is not valid JSON
     * @throws UncheckedIOException when it cannot be read
     */
    public Optional<JsonNode> read() {
        byte[] bytes;
        try {
            bytes = Files.readAllBytes(path);
        } catch (NoSuchFileException e) {
            return Optional.empty();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + path, e);
        }
        if (bytes.length == 0) {
            return Optional.empty();
        }
        try {
            return Optional.ofNullable(Json.mapper().readTree(bytes));
        } catch (IOException e) {
            throw new JsonBodyException("corrupt metadata file " + path + ": " + e.getMessage(), e);
        }
    }

    /**
     * Replaces the file with the JSON of {@code value}.
     *
     * @throws UncheckedIOException when the write, force or rename fails (the old file is then intact)
     */
    public void write(Object value) {
        byte[] bytes = Json.encode(value);
        try {
            Files.createDirectories(path.getParent());
            try (FileChannel channel = FileChannel.open(temp, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                    StandardOpenOption.TRUNCATE_EXISTING)) {
                ByteBuffer buffer = ByteBuffer.wrap(bytes);
                while (buffer.hasRemaining()) {
                    channel.write(buffer);
                }
                channel.force(true);
            }
            try {
                Files.move(temp, path, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(temp, path, StandardCopyOption.REPLACE_EXISTING);
            }
            forceDirectory(path.getParent());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + path, e);
        }
    }

    private static void forceDirectory(Path dir) {
        try (FileChannel channel = FileChannel.open(dir, StandardOpenOption.READ)) {
            channel.force(true);
        } catch (IOException e) {
            // Some file systems refuse to open a directory; the rename itself is still atomic there.
            org.slf4j.LoggerFactory.getLogger(AtomicJsonFile.class).debug("cannot force directory {}: {}", dir,
                    e.toString());
        }
    }
}
