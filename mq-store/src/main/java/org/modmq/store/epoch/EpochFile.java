package org.modmq.store.epoch;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.zip.CRC32;
import org.modmq.api.spi.replication.EpochEntry;
import org.modmq.api.spi.storage.StorageException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code <storeRoot>/epochFileCheckpoint} in RocketMQ's entry-checkpoint format, plus a {@code .bak} copy
 * of the previous content. UTF-8 text, {@code \n} line ends:
 *
 * <pre>
 * 2              number of entries
 * 773307083      CRC-32 of the entry lines (with their line ends) &amp; 0x7FFFFFFF; 0 = not checked
 * 7-7000         epoch-startOffset, oldest first
 * 8-8000
 * </pre>
 *
 * <p>Written to a temporary file, forced and renamed over the old one (the directory forced too), so a crash leaves either
 * content; the old content is kept as {@code .bak} (read when the main file is missing, short or fails
 * its check, as RocketMQ does). Unlike RocketMQ an empty history is written too ({@code 0}, {@code 0}),
 * so a truncation to no entries is not undone by the stale file. Thread-safe (synchronized).
 */
public final class EpochFile {

    private static final Logger LOG = LoggerFactory.getLogger(EpochFile.class);
    /** RocketMQ's file name under the store root. */
    public static final String NAME = "epochFileCheckpoint";

    private final Path file;
    private final Path backup;

    public EpochFile(Path file) {
        this.file = Objects.requireNonNull(file, "file");
        this.backup = file.resolveSibling(file.getFileName() + ".bak");
    }

    /** The entries stored, oldest first; empty when neither file exists. */
    public synchronized List<EpochEntry> read() {
        try {
            return parse(file);
        } catch (NoSuchFileException e) {
            return readBackup("missing");
        } catch (IOException | RuntimeException e) {
            return readBackup(e.getMessage());
        }
    }

    private List<EpochEntry> readBackup(String why) {
        try {
            List<EpochEntry> entries = parse(backup);
            LOG.warn("{} unusable ({}); using {}", file, why, backup);
            return entries;
        } catch (NoSuchFileException e) {
            if (!"missing".equals(why)) {
                throw new StorageException("epoch file " + file + " is unusable (" + why + ") and has no backup", e);
            }
            return List.of();
        } catch (IOException e) {
            throw new StorageException("epoch file " + file + " (" + why + ") and its backup are unusable", e);
        } catch (RuntimeException e) {
            throw new StorageException("epoch file " + file + " (" + why + ") and its backup are unusable",
                    new IOException(e.getMessage(), e));
        }
    }

    private static List<EpochEntry> parse(Path path) throws IOException {
        String text = Files.readString(path, StandardCharsets.UTF_8);
        String[] lines = text.split("\n", -1);
        if (lines.length < 2) {
            throw new IOException("fewer than two lines");
        }
        int expected = Integer.parseInt(lines[0].trim());
        int crc = Integer.parseInt(lines[1].trim());
        List<EpochEntry> entries = new ArrayList<>();
        StringBuilder body = new StringBuilder();
        for (int i = 2; i < lines.length; i++) {
            String line = lines[i].trim();
            if (line.isEmpty()) {
                continue;
            }
            body.append(line).append('\n');
            int dash = line.indexOf('-');
            if (dash <= 0) {
                throw new IOException("bad entry line '" + line + "'");
            }
            entries.add(new EpochEntry(Integer.parseInt(line.substring(0, dash)),
                    Long.parseLong(line.substring(dash + 1))));
        }
        if (entries.size() != expected) {
            throw new IOException("expected " + expected + " entries, found " + entries.size());
        }
        if (crc != 0 && crc != crc(body.toString())) {
            throw new IOException("CRC mismatch");
        }
        return List.copyOf(entries);
    }

    /** Replaces the stored entries (the previous content becomes the backup). */
    public synchronized void write(List<EpochEntry> entries) {
        StringBuilder body = new StringBuilder();
        for (EpochEntry entry : entries) {
            body.append(entry.epoch()).append('-').append(entry.startOffset()).append('\n');
        }
        String content = entries.size() + "\n" + (entries.isEmpty() ? 0 : crc(body.toString())) + "\n" + body;
        try {
            Files.createDirectories(file.getParent());
            if (Files.exists(file)) {
                // The backup is only read when the main file is unusable, which a forced rename never leaves
                // behind: copying it unforced saves a force on the failover path.
                Files.copy(file, backup, StandardCopyOption.REPLACE_EXISTING);
            }
            writeDurably(file, content.getBytes(StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new StorageException("cannot write " + file, e);
        }
    }

    private static void writeDurably(Path target, byte[] bytes) throws IOException {
        Path temp = target.resolveSibling(target.getFileName() + ".tmp");
        try (FileChannel channel = FileChannel.open(temp, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING)) {
            ByteBuffer buffer = ByteBuffer.wrap(bytes);
            while (buffer.hasRemaining()) {
                channel.write(buffer);
            }
            channel.force(true);
        }
        Files.move(temp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        // The rename is durable only with its directory: without this force a power loss could bring the
        // previous epochs back after a new master recorded its own.
        try (FileChannel directory = FileChannel.open(target.getParent(), StandardOpenOption.READ)) {
            directory.force(true);
        }
    }

    static int crc(String body) {
        CRC32 crc = new CRC32();
        crc.update(body.getBytes(StandardCharsets.UTF_8));
        return (int) (crc.getValue() & 0x7FFFFFFF);
    }
}
