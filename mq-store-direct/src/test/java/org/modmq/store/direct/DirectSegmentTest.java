package org.modmq.store.direct;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.modmq.api.spi.storage.Segment;

/**
 * Alignment behaviour of direct segments, checked against the bytes a plain read of the file returns.
 * Most tests use a two-block staging buffer so that writes leave the window often.
 */
@Timeout(60)
class DirectSegmentTest {

    private static final int BLOCK = 4096;
    private static final int CAPACITY = 16 * BLOCK;

    @TempDir
    Path dir;

    private DirectStorageBackend backend = newBackend(2 * BLOCK, 64 * 1024);

    @AfterEach
    void closeBackend() {
        backend.close();
    }

    private static DirectStorageBackend newBackend(int writeBufferBytes, long readCacheBytes) {
        return new DirectStorageBackend(new DirectConfig(writeBufferBytes, readCacheBytes), ByteBufAllocator.DEFAULT,
                ChannelOpener.DIRECT);
    }

    @Test
    void unalignedWritesAcrossBlockBoundariesReachTheFileAfterFlush() throws IOException {
        byte[] model = new byte[CAPACITY];
        try (Segment segment = backend.open(dir.resolve("cross"), CAPACITY)) {
            write(segment, model, BLOCK - 3, pattern(1, 10));
            write(segment, model, 2 * BLOCK - 1, pattern(2, 2 * BLOCK + 2));
            write(segment, model, CAPACITY - 5, pattern(3, 5));
            assertThat(read(segment, 0, CAPACITY)).as("before flush").isEqualTo(model);
            segment.flush(CAPACITY);
            assertThat(Files.readAllBytes(segment.path())).as("file after flush").isEqualTo(model);
            assertThat(read(segment, 0, CAPACITY)).as("after flush").isEqualTo(model);
        }
    }

    @Test
    void partlyWrittenTailBlockIsRewrittenInFullOnEachFlush() throws IOException {
        byte[] model = new byte[CAPACITY];
        try (Segment segment = backend.open(dir.resolve("tail"), CAPACITY)) {
            int position = 0;
            for (int i = 0; i < 40; i++) {
                byte[] record = pattern(i, 37 + i * 13);
                write(segment, model, position, record);
                position += record.length;
                segment.flush(position);
                assertThat(segment.durablePosition()).isEqualTo(position);
                assertThat(Files.readAllBytes(segment.path())).as("file after flush %d", i).isEqualTo(model);
            }
            assertThat(read(segment, 0, CAPACITY)).isEqualTo(model);
        }
    }

    @Test
    void writeBelowTheStagingWindowIsReadModifyWrite() throws IOException {
        byte[] model = new byte[CAPACITY];
        try (Segment segment = backend.open(dir.resolve("below"), CAPACITY)) {
            write(segment, model, 0, pattern(1, 3 * BLOCK + 100));
            segment.flush(3 * BLOCK + 100);
            write(segment, model, 10 * BLOCK + 5, pattern(2, 50));
            write(segment, model, BLOCK + 7, pattern(3, 11));
            write(segment, model, 3 * BLOCK + 90, pattern(4, 20));
            assertThat(read(segment, 0, CAPACITY)).as("before flush").isEqualTo(model);
            segment.flush(CAPACITY);
            assertThat(Files.readAllBytes(segment.path())).isEqualTo(model);
        }
    }

    @Test
    void writeLargerThanTheStagingBufferIsSplit() throws IOException {
        byte[] model = new byte[CAPACITY];
        try (Segment segment = backend.open(dir.resolve("large"), CAPACITY)) {
            write(segment, model, 123, pattern(5, 7 * BLOCK + 55));
            assertThat(read(segment, 0, CAPACITY)).isEqualTo(model);
            segment.flush(CAPACITY);
            assertThat(Files.readAllBytes(segment.path())).isEqualTo(model);
        }
    }

    @Test
    void rewriteOfCachedRangeIsSeenByLaterReads() {
        byte[] model = new byte[CAPACITY];
        try (Segment segment = backend.open(dir.resolve("cached"), CAPACITY)) {
            write(segment, model, 0, pattern(6, CAPACITY));
            segment.flush(CAPACITY);
            write(segment, model, CAPACITY - 10, pattern(7, 10));
            assertThat(read(segment, 0, 5000)).as("cached from the file").isEqualTo(Arrays.copyOf(model, 5000));
            write(segment, model, 4000, pattern(8, 300));
            assertThat(read(segment, 0, CAPACITY)).as("staged rewrite").isEqualTo(model);
            write(segment, model, CAPACITY - 3 * BLOCK, pattern(9, 10));
            assertThat(read(segment, 0, CAPACITY)).as("after the rewrite was written out").isEqualTo(model);
        }
    }

    @Test
    void cleanCloseWithoutFlushReadsBackAfterReopen() throws IOException {
        byte[] model = new byte[CAPACITY];
        Path file = dir.resolve("reopen");
        try (Segment segment = backend.open(file, CAPACITY)) {
            write(segment, model, 100, pattern(10, 5000));
            write(segment, model, 9000, pattern(11, 3));
        }
        assertThat(Files.readAllBytes(file)).isEqualTo(model);
        backend.close();
        backend = newBackend(2 * BLOCK, 64 * 1024);
        try (Segment segment = backend.open(file, CAPACITY)) {
            assertThat(segment.durablePosition()).isZero();
            assertThat(read(segment, 0, CAPACITY)).isEqualTo(model);
            write(segment, model, 5099, pattern(12, 10));
            assertThat(read(segment, 0, CAPACITY)).as("existing bytes around an append after reopen")
                    .isEqualTo(model);
        }
        assertThat(Files.readAllBytes(file)).isEqualTo(model);
    }

    @Test
    void refusesToOpenAFileThatIsAlreadyOpen() {
        Path file = dir.resolve("twice");
        try (Segment segment = backend.open(file, CAPACITY)) {
            assertThat(segment.path()).isEqualTo(file);
            assertThatThrownBy(() -> backend.open(dir.resolve(".").resolve("twice"), CAPACITY))
                    .isInstanceOf(IllegalStateException.class).hasMessageContaining("already open");
            assertThat(backend.openSegments()).isEqualTo(1);
        }
        assertThat(backend.openSegments()).isZero();
        backend.open(file, CAPACITY).delete();
        assertThat(file).doesNotExist();
    }

    @ParameterizedTest
    @ValueSource(ints = {BLOCK, 2 * BLOCK, 64 * 1024})
    void randomWritesReadsAndFlushesMatchAModel(int writeBufferBytes) throws IOException {
        backend.close();
        backend = newBackend(writeBufferBytes, writeBufferBytes == BLOCK ? 0 : 3 * 64 * 1024);
        Random random = new Random(writeBufferBytes);
        int capacity = 2 * 64 * 1024;
        byte[] model = new byte[capacity];
        Path file = dir.resolve("random");
        Segment segment = backend.open(file, capacity);
        try {
            for (int op = 0; op < 600; op++) {
                int position = random.nextInt(capacity);
                int length = Math.min(capacity - position, random.nextInt(random.nextBoolean() ? 200 : 9000));
                switch (random.nextInt(10)) {
                    case 0 -> segment.flush(position);
                    case 1 -> {
                        segment.close();
                        segment = backend.open(file, capacity);
                    }
                    case 2, 3, 4, 5 -> write(segment, model, position, pattern(op, length));
                    default -> assertThat(read(segment, position, length)).as("op %d: read at %d of %d", op,
                            position, length).isEqualTo(Arrays.copyOfRange(model, position, position + length));
                }
            }
            assertThat(read(segment, 0, capacity)).isEqualTo(model);
        } finally {
            segment.close();
        }
        assertThat(Files.readAllBytes(file)).as("file after close").isEqualTo(model);
    }

    private static void write(Segment segment, byte[] model, int position, byte[] bytes) {
        ByteBuf source = Unpooled.wrappedBuffer(bytes);
        try {
            segment.write(position, source);
        } finally {
            source.release();
        }
        System.arraycopy(bytes, 0, model, position, bytes.length);
    }

    private static byte[] read(Segment segment, int position, int length) {
        ByteBuf view = segment.read(position, length);
        try {
            assertThat(view.refCnt()).isEqualTo(1);
            return ByteBufUtil.getBytes(view);
        } finally {
            view.release();
        }
    }

    private static byte[] pattern(int seed, int length) {
        byte[] bytes = new byte[length];
        new Random(seed * 31L + length).nextBytes(bytes);
        for (int i = 0; i < length; i++) {
            bytes[i] |= 1;
        }
        return bytes;
    }
}
