package org.modmq.store.direct;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.Unpooled;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.modmq.api.spi.storage.Segment;

/** Which I/O a direct segment does, counted at the file channel. */
@Timeout(30)
class DirectSegmentIoTest {

    private static final int BLOCK = 4096;
    private static final int CAPACITY = 64 * BLOCK;

    @TempDir
    Path dir;

    private final CountingChannel.Counts counts = new CountingChannel.Counts();
    private DirectStorageBackend backend = newBackend();

    private DirectStorageBackend newBackend() {
        return new DirectStorageBackend(new DirectConfig(16 * BLOCK, 1024 * 1024), ByteBufAllocator.DEFAULT,
                counts.opener());
    }

    @AfterEach
    void closeBackend() {
        backend.close();
    }

    @Test
    void appendsStayInMemoryUntilFlushWhichRewritesTheTailBlockAndForcesOnce() {
        try (Segment segment = backend.open(dir.resolve("appends"), CAPACITY)) {
            for (int i = 0; i < 10; i++) {
                write(segment, i * 100, 100);
            }
            read(segment, 0, 1000);
            assertThat(counts.reads).as("reads of a new file").hasValue(0);
            assertThat(counts.writes).as("writes before flush").hasValue(0);

            segment.flush(1000);
            assertThat(counts.writes).hasValue(1);
            assertThat(counts.forces).hasValue(1);
            segment.flush(1000);
            segment.flush(500);
            assertThat(counts.forces).as("forces after repeated flushes").hasValue(1);
            assertThat(segment.durablePosition()).isEqualTo(1000);

            write(segment, 1000, 100);
            segment.flush(1100);
            assertThat(counts.writes).as("the tail block is written again").hasValue(2);
            assertThat(counts.forces).hasValue(2);
            assertThat(counts.reads).as("the tail block stayed in memory").hasValue(0);
            segment.flush(CAPACITY);
            assertThat(counts.forces).as("flush past the written bytes with nothing pending").hasValue(2);
            assertThat(segment.durablePosition()).isEqualTo(CAPACITY);
        }
    }

    @Test
    void closeWritesOutWithoutForcingAndFirstFlushAfterReopenForces() {
        Path file = dir.resolve("reopen");
        try (Segment segment = backend.open(file, CAPACITY)) {
            write(segment, 0, 5000);
        }
        assertThat(counts.writes).hasValue(1);
        assertThat(counts.forces).as("forces on close").hasValue(0);

        try (Segment segment = backend.open(file, CAPACITY)) {
            segment.flush(5000);
            assertThat(counts.forces).as("bytes a previous segment wrote out are forced").hasValue(1);
            segment.flush(5000);
            assertThat(counts.forces).hasValue(1);
        }
    }

    @Test
    void readsOfFlushedDataComeFromTheCacheAfterTheFirstRead() {
        Path file = dir.resolve("cache");
        try (Segment segment = backend.open(file, CAPACITY)) {
            write(segment, 0, 20 * BLOCK);
            segment.flush(20 * BLOCK);
        }
        backend.close();
        backend = newBackend();
        try (Segment segment = backend.open(file, CAPACITY)) {
            read(segment, 100, 3000);
            int afterFirst = counts.reads.get();
            assertThat(afterFirst).isPositive();
            read(segment, 0, 16 * 1024);
            read(segment, 60 * 1024, 4);
            assertThat(counts.reads).as("reads within the cached chunk").hasValue(afterFirst);
            assertThat(backend.cache().size()).isEqualTo(64 * 1024);
        }
        assertThat(backend.cache().size()).as("cache after the segment closed").isZero();
    }

    @Test
    void overwritingWholeBlocksOfAWrittenFileReadsOnlyThePartlyWrittenOnes() {
        Path file = writtenAndClosed("overwrite", 12 * BLOCK);
        backend = newBackend();
        int before = counts.reads.get();
        try (Segment segment = backend.open(file, CAPACITY)) {
            write(segment, 2 * BLOCK, 3 * BLOCK);
            assertThat(counts.reads).as("reads for a write of whole blocks").hasValue(before);
            write(segment, 5 * BLOCK + 100, BLOCK);
            assertThat(counts.reads).as("reads for a write ending inside a block").hasValue(before + 1);
            read(segment, 0, 12 * BLOCK);
        }
    }

    @Test
    void aWriteFarBeyondTheLoadedBlocksMovesTheWindowInsteadOfReadingTheGap() {
        Path file = writtenAndClosed("scattered", CAPACITY);
        // A window as large as the file, so that every write below lands inside it.
        backend = new DirectStorageBackend(new DirectConfig(CAPACITY, 0), ByteBufAllocator.DEFAULT, counts.opener());
        long before = counts.readBytes.get();
        try (Segment segment = backend.open(file, CAPACITY)) {
            write(segment, 100, 50);
            write(segment, 3 * BLOCK + 100, 50);
            assertThat(counts.readBytes.get() - before).as("a near write reads the blocks up to it")
                    .isEqualTo(4 * BLOCK);
            write(segment, 40 * BLOCK + 100, 50);
            assertThat(counts.readBytes.get() - before).as("a far write reads only its own block")
                    .isEqualTo(5 * BLOCK);
            read(segment, 0, CAPACITY);
        }
    }

    @Test
    void aReadOfSeveralChunksIsOneReadAndIsNotCached() {
        Path file = writtenAndClosed("run", 40 * BLOCK);
        backend = newBackend();
        int before = counts.reads.get();
        try (Segment segment = backend.open(file, CAPACITY)) {
            read(segment, 100, 40 * BLOCK - 100);
            assertThat(counts.reads).as("reads of 160 KiB").hasValue(before + 1);
            assertThat(backend.cache().size()).as("cached bytes").isZero();

            write(segment, 50 * BLOCK, 3000);
            ByteBuf view = segment.read(30 * BLOCK, 25 * BLOCK);
            try {
                for (int i = 0; i < 10 * BLOCK; i++) {
                    assertThat(view.getByte(i)).isEqualTo((byte) (30 * BLOCK + i + 1));
                }
                assertThat(view.getByte(20 * BLOCK)).as("a staged byte").isEqualTo((byte) (50 * BLOCK + 1));
            } finally {
                view.release();
            }
        }
    }

    /** A file of {@code length} written bytes, its backend closed (so nothing of it is cached or staged). */
    private Path writtenAndClosed(String name, int length) {
        Path file = dir.resolve(name);
        try (Segment segment = backend.open(file, CAPACITY)) {
            write(segment, 0, length);
        }
        backend.close();
        return file;
    }

    private static void write(Segment segment, int position, int length) {
        ByteBuf source = Unpooled.buffer(length).writeZero(length);
        try {
            for (int i = 0; i < length; i++) {
                source.setByte(i, position + i + 1);
            }
            segment.write(position, source);
        } finally {
            source.release();
        }
    }

    /** Reads and checks bytes that {@link #write} wrote. */
    private static void read(Segment segment, int position, int length) {
        ByteBuf view = segment.read(position, length);
        try {
            for (int i = 0; i < length; i++) {
                if (view.getByte(i) != (byte) (position + i + 1)) {
                    assertThat(view.getByte(i)).as("byte at %d", position + i).isEqualTo((byte) (position + i + 1));
                }
            }
        } finally {
            view.release();
        }
    }
}
