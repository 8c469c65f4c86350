package org.modmq.compat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;

/**
 * Reads a broker's store directory from outside the broker (its files are plain files; a running broker's
 * mapped writes are visible through the page cache): CommitLog bytes by offset, the epoch entries of
 * {@code epochFileCheckpoint}, and whether a {@code truncating} marker is present. Stateless.
 */
final class StoreFiles {

    /** The marker a replica keeps while it cuts its log back. */
    static final String TRUNCATION_MARKER = "truncating";
    private static final int CHUNK = 1 << 20;

    private StoreFiles() {
    }

    /** Whether {@code <storeDir>/truncating} exists. */
    static boolean truncating(Path storeDir) {
        return Files.exists(storeDir.resolve(TRUNCATION_MARKER));
    }

    /**
     * The first CommitLog offset below {@code end} whose byte differs between the two stores, or -1 when
     * {@code [0, end)} is identical. Segments are {@code commitlog/<20-digit start offset>} of
     * {@code segmentSize} bytes; a missing segment fails.
     */
    static long firstCommitLogDifference(Path storeA, Path storeB, long end, int segmentSize) {
        ByteBuffer a = ByteBuffer.allocate(CHUNK);
        ByteBuffer b = ByteBuffer.allocate(CHUNK);
        for (long start = 0; start < end; start += segmentSize) {
            String name = String.format("%020d", start);
            try (FileChannel fa = FileChannel.open(storeA.resolve("commitlog").resolve(name), StandardOpenOption.READ);
                    FileChannel fb = FileChannel.open(storeB.resolve("commitlog").resolve(name), StandardOpenOption.READ)) {
                long length = Math.min(segmentSize, end - start);
                for (long at = 0; at < length; at += CHUNK) {
                    int n = (int) Math.min(CHUNK, length - at);
                    read(fa, a, at, n);
                    read(fb, b, at, n);
                    int mismatch = a.mismatch(b);
                    if (mismatch >= 0) {
                        return start + at + mismatch;
                    }
                }
            } catch (IOException e) {
                throw new UncheckedIOException("cannot compare CommitLog segment " + name + " of " + storeA + " and "
                        + storeB, e);
            }
        }
        return -1;
    }

    private static void read(FileChannel channel, ByteBuffer buffer, long position, int length) throws IOException {
        buffer.clear().limit(length);
        while (buffer.hasRemaining()) {
            if (channel.read(buffer, position + buffer.position()) < 0) {
                throw new IOException("segment shorter than " + (position + length) + " bytes");
            }
        }
        buffer.flip();
    }

    /**
     * The entry lines ({@code epoch-startOffset}, oldest first) of {@code <storeDir>/epochFileCheckpoint}
     * (after its count and checksum lines); empty when the file does not exist.
     */
    static List<String> epochEntries(Path storeDir) {
        try {
            List<String> lines = Files.readAllLines(storeDir.resolve("epochFileCheckpoint"), StandardCharsets.UTF_8);
            return lines.stream().skip(2).map(String::trim).filter(line -> !line.isEmpty()).toList();
        } catch (NoSuchFileException e) {
            return List.of();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the epoch file of " + storeDir, e);
        }
    }

    /** The start offset of the last epoch entry of {@code storeDir}, or -1 without one. */
    static long lastEpochStart(Path storeDir) {
        List<String> entries = epochEntries(storeDir);
        if (entries.isEmpty()) {
            return -1;
        }
        String last = entries.get(entries.size() - 1);
        return Long.parseLong(last.substring(last.indexOf('-') + 1));
    }
}
