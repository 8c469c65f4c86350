package org.modmq.interop;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.HexFormat;

/**
 * Byte-for-byte comparison of two CommitLog directories over {@code [0, length)}. Both sides name each
 * segment by its 20-digit start offset and pre-allocate whole segments, so only the written range is
 * compared. Stateless.
 */
final class CommitLogs {

    private CommitLogs() {
    }

    /**
     * Fails unless both directories hold the same segment files over {@code [0, length)} with identical
     * bytes; the failure names the first differing offset and shows the bytes around it.
     *
     * @return the number of segment files compared
     */
    static int assertIdentical(Path expectedDir, Path actualDir, long length, int segmentSize) {
        int files = 0;
        for (long start = 0; start < length; start += segmentSize) {
            int size = (int) Math.min(segmentSize, length - start);
            String name = String.format("%020d", start);
            byte[] expected = read(expectedDir.resolve(name), size);
            byte[] actual = read(actualDir.resolve(name), size);
            int at = Arrays.mismatch(expected, actual);
            if (at >= 0) {
                throw new AssertionError("CommitLogs differ at offset " + (start + at) + " (file " + name + ", position "
                        + at + ") within the " + length + " bytes compared:\n  expected " + hex(expected, at)
                        + "\n  actual   " + hex(actual, at));
            }
            files++;
        }
        return files;
    }

    private static byte[] read(Path file, int size) {
        if (!Files.isRegularFile(file)) {
            throw new AssertionError("missing CommitLog segment " + file);
        }
        byte[] bytes = new byte[size];
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
            ByteBuffer buffer = ByteBuffer.wrap(bytes);
            while (buffer.hasRemaining()) {
                if (channel.read(buffer) < 0) {
                    throw new AssertionError(file + " holds only " + buffer.position() + " of the " + size
                            + " bytes to compare");
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file, e);
        }
        return bytes;
    }

    private static String hex(byte[] bytes, int at) {
        int from = Math.max(0, at - 8);
        int to = Math.min(bytes.length, at + 24);
        return "[" + from + ".." + to + ") " + HexFormat.ofDelimiter(" ").formatHex(bytes, from, to);
    }
}
