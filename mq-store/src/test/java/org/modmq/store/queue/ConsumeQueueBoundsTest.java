package org.modmq.store.queue;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.modmq.store.FileChannelTestBackend;
import org.modmq.testkit.NettyLeakCheck;

/**
 * Where a reopened ConsumeQueue ends: in a store this version created (dense: the first missing entry, so
 * re-dispatch rewrites what a power loss took, also below entries it kept) and in a store an earlier modmq
 * wrote (the last entry held, past the holes it left, which reads skip). 100 entries per 2000-byte file.
 */
@ExtendWith(NettyLeakCheck.class)
class ConsumeQueueBoundsTest {

    private static final int PER_FILE = 100;

    @TempDir
    Path root;

    private final FileChannelTestBackend backend = new FileChannelTestBackend();

    private ConsumeQueueTable table() {
        ConsumeQueueTable table = new ConsumeQueueTable(backend, root.resolve("consumequeue"), PER_FILE);
        table.load();
        return table;
    }

    private void write(int entries) {
        write(0, entries);
    }

    /** Entries [from, to): a queue that starts at {@code from} (a replica that began in its master's middle). */
    private void write(int from, int to) {
        try (ConsumeQueueTable table = table()) {
            ConsumeQueue queue = table.get("T", 0, true);
            for (int i = from; i < to; i++) {
                queue.put(i, 1000L + i * 100L, 100, 0);
            }
            table.flushAll();
        }
    }

    /** Zeroes entries [from, to) in the files as a power loss that took their pages would leave them. */
    private void lose(int from, int to) throws IOException {
        for (int i = from; i < to; i++) {
            long file = (long) (i / PER_FILE) * PER_FILE * ConsumeQueue.ENTRY;
            Path path = root.resolve("consumequeue/T/0").resolve(String.format("%020d", file));
            try (FileChannel channel = FileChannel.open(path, StandardOpenOption.WRITE)) {
                channel.write(ByteBuffer.allocate(ConsumeQueue.ENTRY), (long) (i % PER_FILE) * ConsumeQueue.ENTRY);
            }
        }
    }

    private long reopenedMax() {
        try (ConsumeQueueTable table = table()) {
            return table.get("T", 0, false).maxOffset();
        }
    }

    @Test
    void aFreshStoreIsDenseAndEndsAtItsLastEntry() {
        write(250);
        assertThat(Files.exists(root.resolve(ConsumeQueueTable.DENSE_MARKER))).isTrue();
        assertThat(reopenedMax()).isEqualTo(250);
    }

    @Test
    void aDenseQueueEndsAtItsFirstMissingEntryEvenWhenLaterOnesSurvived() throws IOException {
        write(250);
        lose(220, 230);
        assertThat(reopenedMax()).isEqualTo(220);
    }

    @Test
    void aDenseQueueWhoseLastFileLostItsFirstPageEndsInTheFileBefore() throws IOException {
        write(250);
        lose(150, 200);
        assertThat(reopenedMax()).as("file 1 lost its tail, file 2 kept entries").isEqualTo(150);
    }

    @Test
    void aDenseQueueMayStartInsideItsFirstFile() {
        write(150, 180);
        assertThat(reopenedMax()).isEqualTo(180);
        write(180, 250);
        assertThat(reopenedMax()).isEqualTo(250);
    }

    @Test
    void aFullLastFileEndsAtItsEnd() {
        write(200);
        assertThat(reopenedMax()).isEqualTo(200);
    }

    @Test
    void aStoreWithoutTheMarkerKeepsTheLastEntryHeldPastAHole() throws IOException {
        write(250);
        Files.delete(root.resolve(ConsumeQueueTable.DENSE_MARKER));
        lose(220, 230);
        assertThat(reopenedMax()).isEqualTo(250);
        assertThat(Files.exists(root.resolve(ConsumeQueueTable.DENSE_MARKER)))
                .as("a store with queues but no marker is not marked later").isFalse();
    }
}
