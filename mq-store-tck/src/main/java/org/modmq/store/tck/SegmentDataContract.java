package org.modmq.store.tck;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.CompositeByteBuf;
import io.netty.buffer.Unpooled;
import java.util.function.IntFunction;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.modmq.api.spi.storage.Segment;

/**
 * Contract for what a segment stores: positional writes and their read-back, zeroes where nothing
 * was written, read views, source buffer ownership and flush positions.
 *
 * <p>Backend authors extend {@link StorageBackendContractTest}, which inherits these tests.
 */
@Timeout(30)
public abstract class SegmentDataContract extends StorageContractFixture {

    /** For subclasses; JUnit creates one instance per test method. */
    protected SegmentDataContract() {
    }

    @Test
    public void reportsPathAndCapacity() {
        try (Segment segment = openSegment("00000000000000000000")) {
            assertThat(segment.path()).isEqualTo(segmentFile("00000000000000000000"));
            assertThat(segment.capacity()).isEqualTo(capacity());
            assertThat(segment.path()).exists().hasSize(capacity());
        }
    }

    @Test
    public void readsBackWritesAtSeveralPositions() {
        int capacity = capacity();
        int[][] writes = {
            {0, 100}, {100, 1}, {777, 333}, {4085, 10}, {4095, 1}, {8189, 4100}, {16380, 9}, {capacity - 7, 7},
        };
        try (Segment segment = openSegment("positions")) {
            for (int i = 0; i < writes.length; i++) {
                write(segment, writes[i][0], pattern(i, writes[i][1]));
            }
            for (int i = 0; i < writes.length; i++) {
                assertThat(readBytes(segment, writes[i][0], writes[i][1]))
                        .as("bytes written at %d, length %d", writes[i][0], writes[i][1])
                        .isEqualTo(pattern(i, writes[i][1]));
            }
            assertThat(readBytes(segment, 0, 101)).isEqualTo(concat(pattern(0, 100), pattern(1, 1)));
        }
    }

    @Test
    public void readsBackConsecutiveUnalignedAppends() {
        try (Segment segment = openSegment("appends")) {
            byte[] expected = new byte[0];
            int position = 0;
            for (int i = 0; position + 700 < 3 * 4096 + 200; i++) {
                byte[] record = pattern(i, 37 + (i * 211) % 700);
                write(segment, position, record);
                position += record.length;
                expected = concat(expected, record);
                assertThat(readBytes(segment, 0, position)).as("after append %d", i).isEqualTo(expected);
            }
        }
    }

    @Test
    public void rewritesPartlyWrittenTail() {
        try (Segment segment = openSegment("tail")) {
            byte[] first = pattern(1, 5000);
            write(segment, 0, first);
            byte[] second = pattern(2, 1000);
            write(segment, 4500, second);
            byte[] third = pattern(3, 20);
            write(segment, 4096 + 10, third);

            byte[] expected = concat(first, new byte[500]);
            System.arraycopy(second, 0, expected, 4500, second.length);
            System.arraycopy(third, 0, expected, 4106, third.length);
            assertThat(readBytes(segment, 0, 5500)).isEqualTo(expected);
            assertThat(readBytes(segment, 5500, 100)).isEqualTo(new byte[100]);
        }
    }

    @Test
    public void neverWrittenBytesReadAsZero() {
        int capacity = capacity();
        try (Segment segment = openSegment("zeros")) {
            assertThat(readBytes(segment, 0, capacity)).isEqualTo(new byte[capacity]);
            write(segment, 4000, pattern(7, 200));
            assertThat(readBytes(segment, 0, 4000)).isEqualTo(new byte[4000]);
            assertThat(readBytes(segment, 4200, capacity - 4200)).isEqualTo(new byte[capacity - 4200]);
            assertThat(readBytes(segment, capacity, 0)).isEmpty();
        }
    }

    @Test
    public void readViewIsReadOnlyAndReferenceCounted() {
        try (Segment segment = openSegment("view")) {
            byte[] bytes = pattern(5, 64);
            write(segment, 128, bytes);
            ByteBuf view = segment.read(128, 64);
            try {
                assertThat(view.refCnt()).isEqualTo(1);
                assertThat(view.readerIndex()).isZero();
                assertThat(view.readableBytes()).isEqualTo(64);
                assertThat(ByteBufUtil.getBytes(view)).isEqualTo(bytes);
                if (!view.isReadOnly()) {
                    scribble(view);
                }
            } finally {
                assertThat(view.release()).as("release of the only reference").isTrue();
            }
            assertThat(view.refCnt()).isZero();
            assertThat(readBytes(segment, 128, 64)).as("file after writing through a view").isEqualTo(bytes);
        }
    }

    private static void scribble(ByteBuf view) {
        try {
            view.setByte(0, 0);
            view.setByte(63, 0);
        } catch (UnsupportedOperationException refused) {
            // ReadOnlyBufferException included: a view that refuses writes meets the contract too.
            assertThat(refused).isInstanceOf(UnsupportedOperationException.class);
        }
    }

    @Test
    public void viewStaysReadableAfterSegmentClose() {
        Segment segment = openSegment("after-close");
        byte[] bytes = pattern(9, 5000);
        write(segment, 3000, bytes);
        ByteBuf view = segment.read(3000, 5000);
        try {
            segment.close();
            assertThat(ByteBufUtil.getBytes(view)).isEqualTo(bytes);
            assertThat(view.refCnt()).isEqualTo(1);
        } finally {
            assertThat(view.release()).isTrue();
        }
    }

    @Test
    public void writeLeavesHeapSourceIndexesAlone() {
        checkSourceIndexes(Unpooled::buffer);
    }

    @Test
    public void writeLeavesDirectSourceIndexesAlone() {
        checkSourceIndexes(Unpooled::directBuffer);
    }

    @Test
    public void writeLeavesCompositeSourceIndexesAlone() {
        checkSourceIndexes(size -> {
            CompositeByteBuf composite = Unpooled.compositeBuffer();
            composite.addComponent(true, Unpooled.buffer(size / 2).writeZero(size / 2));
            composite.addComponent(true, Unpooled.directBuffer(size - size / 2).writeZero(size - size / 2));
            return composite.writerIndex(0);
        });
    }

    private void checkSourceIndexes(IntFunction<ByteBuf> allocate) {
        byte[] bytes = pattern(11, 300);
        try (Segment segment = openSegment("source")) {
            ByteBuf source = allocate.apply(bytes.length);
            try {
                source.writeBytes(bytes);
                source.readerIndex(7).writerIndex(290);
                segment.write(4000, source);
                assertThat(source.readerIndex()).as("source readerIndex").isEqualTo(7);
                assertThat(source.writerIndex()).as("source writerIndex").isEqualTo(290);
                assertThat(source.refCnt()).as("source refCnt, still owned by the caller").isEqualTo(1);
            } finally {
                source.release();
            }
            byte[] expected = new byte[283];
            System.arraycopy(bytes, 7, expected, 0, expected.length);
            assertThat(readBytes(segment, 4000, 283)).isEqualTo(expected);
            assertThat(readBytes(segment, 4283, 10)).isEqualTo(new byte[10]);
            assertThat(readBytes(segment, 3990, 10)).isEqualTo(new byte[10]);
        }
    }

    @Test
    public void emptyWriteChangesNothing() {
        try (Segment segment = openSegment("empty")) {
            write(segment, 10, new byte[0]);
            write(segment, capacity(), new byte[0]);
            assertThat(readBytes(segment, 0, 100)).isEqualTo(new byte[100]);
        }
    }

    @Test
    public void flushRaisesDurablePosition() {
        try (Segment segment = openSegment("flush")) {
            assertThat(segment.durablePosition()).isZero();
            segment.flush(0);
            assertThat(segment.durablePosition()).isZero();

            write(segment, 0, pattern(3, 1000));
            segment.flush(1000);
            assertThat(segment.durablePosition()).isEqualTo(1000);
            segment.flush(1000);
            assertThat(segment.durablePosition()).as("after a repeated flush").isEqualTo(1000);
            segment.flush(500);
            assertThat(segment.durablePosition()).as("after a flush below the durable position")
                    .isEqualTo(1000);

            write(segment, 1000, pattern(4, 4000));
            segment.flush(5000);
            assertThat(segment.durablePosition()).isEqualTo(5000);
            segment.flush(capacity());
            assertThat(segment.durablePosition()).isEqualTo(capacity());
            assertThat(readBytes(segment, 0, 5000)).isEqualTo(concat(pattern(3, 1000), pattern(4, 4000)));
        }
    }

    @Test
    public void warmKeepsContent() {
        try (Segment segment = openSegment("warm")) {
            write(segment, 50, pattern(6, 60));
            segment.warm();
            assertThat(readBytes(segment, 50, 60)).isEqualTo(pattern(6, 60));
            assertThat(readBytes(segment, 110, 100)).isEqualTo(new byte[100]);
        }
    }
}
