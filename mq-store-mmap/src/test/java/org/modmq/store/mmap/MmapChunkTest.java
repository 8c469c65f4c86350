package org.modmq.store.mmap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.modmq.api.spi.storage.StorageException;

@Timeout(30)
class MmapChunkTest {

    private static final int CHUNK = 4096;

    @TempDir
    Path storeRoot;

    private final MmapStorageBackend backend = new MmapStorageBackend(false, CHUNK, 2 * CHUNK, 0);

    @AfterEach
    void closeBackend() {
        backend.close();
    }

    private MmapSegment open(String name) {
        return (MmapSegment) backend.open(storeRoot.resolve(name), 16 * CHUNK);
    }

    private static void write(MmapSegment segment, int position, byte[] bytes) {
        ByteBuf source = Unpooled.wrappedBuffer(bytes);
        try {
            segment.write(position, source);
        } finally {
            source.release();
        }
    }

    private static String read(MmapSegment segment, int position, int length) {
        ByteBuf view = segment.read(position, length);
        try {
            return view.toString(StandardCharsets.ISO_8859_1);
        } finally {
            view.release();
        }
    }

    private static byte[] pattern(int length, int seed) {
        byte[] bytes = new byte[length];
        for (int i = 0; i < length; i++) {
            bytes[i] = (byte) ('a' + (i + seed) % 26);
        }
        return bytes;
    }

    @Test
    void mapsNothingUntilFirstAccess() {
        MmapSegment segment = open("lazy");
        assertThat(segment.mappedChunks()).isZero();
        assertThat(backend.budget().installedCount()).isZero();
        segment.close();
    }

    @Test
    void largeWritesGoAroundTheMappingsAndStayDirtyUntilFlushed() {
        try (MmapStorageBackend syscalls = new MmapStorageBackend(false, CHUNK, 2 * CHUNK, 1024)) {
            MmapSegment segment = (MmapSegment) syscalls.open(storeRoot.resolve("pwrite"), 16 * CHUNK);
            byte[] large = pattern(3 * CHUNK + 10, 0);
            write(segment, 0, large);
            write(segment, large.length, pattern(100, 7));
            assertThat(segment.mappedChunks()).as("only the small write mapped its chunk").isEqualTo(1);
            assertThat(segment.dirty(0)).isTrue();
            assertThat(segment.dirty(3)).isTrue();
            assertThat(read(segment, CHUNK - 5, 10)).as("a mapping sees what pwrite put in the page cache")
                    .isEqualTo(new String(large, CHUNK - 5, 10, StandardCharsets.ISO_8859_1));
            segment.flush(4 * CHUNK);
            assertThat(segment.durablePosition()).isEqualTo(4 * CHUNK);
            assertThat(segment.dirty(0)).isFalse();
            assertThat(segment.dirty(3)).isFalse();
            assertThat(read(segment, large.length, 100)).isEqualTo(new String(pattern(100, 7), StandardCharsets.ISO_8859_1));
            segment.close();
        }
    }

    @Test
    void writtenChunksStayMappedUntilFlushedThenIdleOnesGo() {
        MmapSegment segment = open("flushed");
        write(segment, 0, pattern(5 * CHUNK + 10, 0));
        assertThat(segment.mappedChunks()).as("six chunks written, none flushed").isEqualTo(6);
        backend.budget().trim();
        assertThat(segment.mappedChunks()).as("dirty chunks are never retired").isEqualTo(6);

        segment.flush(3 * CHUNK);
        assertThat(segment.mappedChunks()).as("three clean chunks, two kept within the budget, three dirty")
                .isEqualTo(5);
        segment.flush(5 * CHUNK + 10);
        assertThat(segment.mappedChunks()).as("two clean ones within the budget and the one being written")
                .isEqualTo(3);
        assertThat(backend.budget().installedBytes()).isLessThanOrEqualTo(3L * CHUNK);
        assertThat(read(segment, 10, 2 * CHUNK)).as("retired chunks map again with their bytes")
                .isEqualTo(new String(pattern(5 * CHUNK + 10, 0), 10, 2 * CHUNK, StandardCharsets.ISO_8859_1));
        segment.close();
        assertThat(backend.budget().installedCount()).isZero();
    }

    @Test
    void keepsTheMostRecentlyReadChunksWithinTheBudget() {
        MmapSegment segment = open("read");
        write(segment, 0, pattern(16 * CHUNK, 3));
        segment.flush(16 * CHUNK);
        for (int chunk = 0; chunk < 16; chunk++) {
            assertThat(read(segment, chunk * CHUNK + 1, 100)).isEqualTo(
                    new String(pattern(16 * CHUNK, 3), chunk * CHUNK + 1, 100, StandardCharsets.ISO_8859_1));
        }
        backend.budget().trim();
        assertThat(segment.mappedChunks()).isEqualTo(2);
        ByteBuf recent = segment.read(15 * CHUNK, 1);
        recent.release();
        assertThat(segment.mappedChunks()).as("the last chunk read was kept: no new mapping").isEqualTo(2);
        segment.close();
    }

    @Test
    void aViewKeepsItsChunkMappedAndReadable() {
        MmapSegment segment = open("viewed");
        write(segment, 100, "hello".getBytes(StandardCharsets.US_ASCII));
        segment.flush(200);
        ByteBuf view = segment.read(100, 5);
        for (int chunk = 1; chunk < 8; chunk++) {
            read(segment, chunk * CHUNK, 10);
        }
        backend.budget().trim();
        assertThat(view.toString(StandardCharsets.US_ASCII)).isEqualTo("hello");
        view.release();
        segment.close();
        assertThat(segment.referenceCount()).isZero();
        assertThat(backend.budget().installedCount()).isZero();
    }

    @Test
    void aReadAcrossChunksGetsAMappingOfItsOwn() {
        MmapSegment segment = open("across");
        byte[] bytes = pattern(300, 7);
        write(segment, CHUNK - 100, bytes);
        segment.flush(CHUNK + 200);
        backend.budget().trim();
        int before = segment.mappedChunks();
        ByteBuf view = segment.read(CHUNK - 100, 300);
        assertThat(segment.mappedChunks()).isEqualTo(before);
        assertThat(view.toString(StandardCharsets.ISO_8859_1)).isEqualTo(new String(bytes, StandardCharsets.ISO_8859_1));
        segment.delete();
        assertThat(segment.path()).exists();
        view.release();
        assertThat(segment.path()).doesNotExist();
    }

    @Test
    void aFlushMapsNoChunkThatHoldsNothingToForce() {
        try (MmapStorageBackend strict = new MmapStorageBackend(false, CHUNK, 0, 0)) {
            MmapSegment segment = (MmapSegment) strict.open(storeRoot.resolve("strict"), 16 * CHUNK);
            write(segment, CHUNK + 5, pattern(2 * CHUNK, 1));
            segment.flush(16 * CHUNK);
            assertThat(segment.mappedChunks()).isZero();
            write(segment, 15 * CHUNK, pattern(10, 2));
            assertThat(segment.mappedChunks()).isEqualTo(1);
            segment.flush(16 * CHUNK);
            assertThat(segment.mappedChunks()).as("only the last chunk was forced, then retired").isZero();
            assertThat(segment.durablePosition()).isEqualTo(16 * CHUNK);
            segment.close();
        }
    }

    @Test
    void unflushedBytesSurviveTheirChunkBeingRemapped() {
        MmapSegment segment = open("rewritten");
        write(segment, 10, "first".getBytes(StandardCharsets.US_ASCII));
        segment.flush(CHUNK);
        backend.budget().trim();
        write(segment, 10, "again".getBytes(StandardCharsets.US_ASCII));
        for (int chunk = 1; chunk < 8; chunk++) {
            read(segment, chunk * CHUNK, 10);
        }
        assertThat(read(segment, 10, 5)).isEqualTo("again");
        segment.flush(CHUNK);
        assertThat(segment.durablePosition()).isEqualTo(CHUNK);
        segment.close();
    }

    @Test
    void aFlushWhoseChunkCannotBeMappedLeavesItsRangeDirty() throws Exception {
        MmapSegment first = open("unmappable");
        write(first, 0, pattern(100, 4));
        first.flush(16 * CHUNK);
        first.close();
        // Reopened, every chunk may hold bytes a previous process never forced; none is mapped yet.
        MmapSegment segment = open("unmappable");
        Files.delete(segment.path());
        assertThatThrownBy(() -> segment.flush(CHUNK)).isInstanceOf(StorageException.class);
        assertThatThrownBy(() -> segment.flush(CHUNK)).as("nothing was forced: the next flush tries again")
                .isInstanceOf(StorageException.class);
        assertThat(segment.durablePosition()).isZero();
        segment.close();
    }
}
