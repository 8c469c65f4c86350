package org.modmq.interop;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * A broker's epoch history file, {@code <storePathRootDir>/epochFileCheckpoint}, as both implementations
 * write it (RocketMQ's {@code CheckpointFile}): the number of entries, a CRC of the entry lines, then one
 * {@code epoch-startOffset} line per entry, oldest first. Stateless.
 */
final class EpochCheckpoints {

    static final String FILE = "epochFileCheckpoint";

    private EpochCheckpoints() {
    }

    /** The {@code epoch-startOffset} lines of the store under {@code storeRoot}, after checking the count. */
    static List<String> entries(Path storeRoot) {
        Path file = storeRoot.resolve(FILE);
        List<String> lines;
        try {
            lines = Files.readAllLines(file, StandardCharsets.UTF_8).stream().map(String::trim)
                    .filter(line -> !line.isEmpty()).toList();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file, e);
        }
        assertThat(lines).as("lines of %s", file).hasSizeGreaterThanOrEqualTo(2);
        List<String> entries = lines.subList(2, lines.size());
        assertThat(entries).as("entries of %s (it announces %s)", file, lines.get(0))
                .hasSize(Integer.parseInt(lines.get(0)))
                .allMatch(line -> line.matches("\\d+-\\d+"), "epoch-startOffset lines");
        return List.copyOf(entries);
    }

    /** The whole file's text (count, CRC and entries). */
    static String text(Path storeRoot) {
        Path file = storeRoot.resolve(FILE);
        try {
            return Files.readString(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file, e);
        }
    }
}
