package org.modmq.store.tck;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.modmq.api.spi.storage.Segment;
import org.modmq.api.spi.storage.StorageBackend;

/**
 * Contract for a segment's life: reopening, argument and bounds checks, the closed state, and
 * deletion that waits for the last read view.
 *
 * <p>Backend authors extend {@link StorageBackendContractTest}, which inherits these tests.
 */
@Timeout(30)
public abstract class SegmentLifecycleContract extends SegmentDataContract {

    /** For subclasses; JUnit creates one instance per test method. */
    protected SegmentLifecycleContract() {
    }

    @Test
    public void reopensWithNewBackendAndReadsIdenticalBytes() {
        byte[] first = pattern(21, 4097);
        byte[] second = pattern(22, 123);
        Path file;
        try (Segment segment = openSegment("reopen")) {
            file = segment.path();
            write(segment, 0, first);
            write(segment, capacity() - 123, second);
            segment.flush(capacity());
        }
        backend().close();
        try (StorageBackend again = createBackend(storeRoot); Segment segment = again.open(file, capacity())) {
            assertThat(segment.durablePosition()).as("durable position of a reopened segment").isZero();
            assertThat(readBytes(segment, 0, 4097)).isEqualTo(first);
            assertThat(readBytes(segment, capacity() - 123, 123)).isEqualTo(second);
            assertThat(readBytes(segment, 4097, capacity() - 4097 - 123))
                    .isEqualTo(new byte[capacity() - 4097 - 123]);
        }
    }

    @Test
    public void reopensOnSameBackendAfterClose() {
        try (Segment segment = openSegment("same-backend")) {
            write(segment, 10, pattern(23, 50));
            segment.flush(60);
        }
        try (Segment segment = openSegment("same-backend")) {
            assertThat(readBytes(segment, 10, 50)).isEqualTo(pattern(23, 50));
        }
    }

    @Test
    public void rejectsCapacityDifferentFromExistingFile() {
        try (Segment segment = openSegment("mismatch")) {
            write(segment, 0, pattern(24, 10));
            segment.flush(10);
        }
        Path file = segmentFile("mismatch");
        assertThatThrownBy(() -> backend().open(file, capacity() * 2)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> backend().open(file, capacity() / 2)).isInstanceOf(IllegalArgumentException.class);
        assertThat(file).hasSize(capacity());
        try (Segment segment = openSegment("mismatch")) {
            assertThat(readBytes(segment, 0, 10)).isEqualTo(pattern(24, 10));
        }
    }

    @Test
    public void rejectsNonPositiveCapacity() {
        Path file = segmentFile("no-capacity");
        assertThatThrownBy(() -> backend().open(file, 0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> backend().open(file, -4096)).isInstanceOf(IllegalArgumentException.class);
        assertThat(file).doesNotExist();
    }

    @Test
    public void rejectsOutOfBoundsAccessAndChangesNothing() {
        int capacity = capacity();
        try (Segment segment = openSegment("bounds")) {
            assertThatThrownBy(() -> write(segment, -1, pattern(1, 1)))
                    .isInstanceOf(IndexOutOfBoundsException.class);
            assertThatThrownBy(() -> write(segment, capacity - 3, pattern(1, 4)))
                    .isInstanceOf(IndexOutOfBoundsException.class);
            assertThatThrownBy(() -> write(segment, capacity, pattern(1, 1)))
                    .isInstanceOf(IndexOutOfBoundsException.class);
            assertThatThrownBy(() -> segment.read(-1, 1)).isInstanceOf(IndexOutOfBoundsException.class);
            assertThatThrownBy(() -> segment.read(capacity - 1, 2)).isInstanceOf(IndexOutOfBoundsException.class);
            assertThatThrownBy(() -> segment.read(0, capacity + 1)).isInstanceOf(IndexOutOfBoundsException.class);
            assertThatThrownBy(() -> segment.read(capacity + 1, 0)).isInstanceOf(IndexOutOfBoundsException.class);
            assertThatThrownBy(() -> segment.flush(-1)).isInstanceOf(IndexOutOfBoundsException.class);
            assertThatThrownBy(() -> segment.flush(capacity + 1)).isInstanceOf(IndexOutOfBoundsException.class);

            assertThat(readBytes(segment, capacity - 4096, 4096)).as("tail after refused writes")
                    .isEqualTo(new byte[4096]);
            assertThat(readBytes(segment, 0, 16)).as("head after refused writes").isEqualTo(new byte[16]);
            assertThat(segment.durablePosition()).isZero();
        }
    }

    @Test
    public void closedSegmentRejectsOperations() {
        Segment segment = openSegment("closed");
        write(segment, 0, pattern(25, 10));
        segment.close();
        assertRejectsOperations(segment);
    }

    @Test
    public void deletedSegmentRejectsOperations() {
        Segment segment = openSegment("deleted");
        segment.delete();
        assertRejectsOperations(segment);
    }

    private static void assertRejectsOperations(Segment segment) {
        assertThatThrownBy(() -> write(segment, 0, pattern(1, 1))).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> segment.read(0, 1)).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> segment.flush(0)).isInstanceOf(IllegalStateException.class);
    }

    @Test
    public void closeAndDeleteAreIdempotent() {
        Segment segment = openSegment("idempotent");
        segment.close();
        segment.close();
        segment.delete();
        segment.delete();
        segment.close();
        assertThat(segment.path()).doesNotExist();
    }

    @Test
    public void deleteRemovesFile() throws Exception {
        Segment segment = openSegment("remove");
        write(segment, 0, pattern(26, 100));
        segment.flush(100);
        segment.delete();
        assertThat(segment.path()).doesNotExist();
        try (Stream<Path> left = Files.list(storeRoot)) {
            assertThat(left.map(Path::getFileName).map(Path::toString))
                    .as("files left in the store root").doesNotContain("remove");
        }
    }

    @Test
    public void deleteWaitsForLastViewRelease() {
        Segment segment = openSegment("held");
        byte[] bytes = pattern(27, 3000);
        write(segment, 1000, bytes);
        ByteBuf first = segment.read(1000, 3000);
        ByteBuf second = segment.read(2000, 10);
        try {
            segment.delete();
            assertThat(ByteBufUtil.getBytes(first)).as("view after delete").isEqualTo(bytes);
        } finally {
            assertThat(first.release()).isTrue();
        }
        assertThat(ByteBufUtil.getBytes(second)).as("second view after the first was released")
                .isEqualTo(Arrays.copyOfRange(bytes, 1000, 1010));
        assertThat(second.release()).isTrue();
        assertThat(segment.path()).as("file once the last view is released").doesNotExist();
    }

    @Test
    public void backendCloseClosesOpenSegments() {
        Segment one = openSegment("one");
        Segment two = openSegment("two");
        write(one, 0, pattern(28, 10));
        ByteBuf view = one.read(0, 10);
        try {
            backend().close();
            backend().close();
            assertRejectsOperations(one);
            assertRejectsOperations(two);
            assertThat(ByteBufUtil.getBytes(view)).isEqualTo(pattern(28, 10));
        } finally {
            assertThat(view.release()).isTrue();
        }
        one.close();
        two.delete();
        assertThat(two.path()).doesNotExist();
    }

    @Test
    public void closedBackendRejectsOpen() {
        backend().close();
        assertThatThrownBy(() -> openSegment("late")).isInstanceOf(IllegalStateException.class);
    }
}
