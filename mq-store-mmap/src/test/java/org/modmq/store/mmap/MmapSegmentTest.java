package org.modmq.store.mmap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.util.IllegalReferenceCountException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

@Timeout(30)
class MmapSegmentTest {

    @TempDir
    Path storeRoot;

    private final MmapStorageBackend backend = new MmapStorageBackend(false);

    @AfterEach
    void closeBackend() {
        backend.close();
    }

    private MmapSegment open(String name) {
        return (MmapSegment) backend.open(storeRoot.resolve(name), 16 * 1024);
    }

    private static void write(MmapSegment segment, int position, String text) {
        ByteBuf source = Unpooled.copiedBuffer(text, StandardCharsets.US_ASCII);
        try {
            segment.write(position, source);
        } finally {
            source.release();
        }
    }

    @Test
    void unmapsThroughUnsafeOnThisJdk() {
        assertThat(Unmapper.instance().isAvailable()).as("invokeCleaner, cause: %s",
                Unmapper.instance().unavailabilityCause()).isTrue();
    }

    @Test
    void viewsHoldTheSegmentUntilReleased() {
        MmapSegment segment = open("counted");
        write(segment, 0, "hello");
        assertThat(segment.referenceCount()).isEqualTo(1);
        ByteBuf first = segment.read(0, 5);
        ByteBuf second = segment.read(1, 4);
        assertThat(segment.referenceCount()).isEqualTo(3);

        assertThat(first.release()).isTrue();
        assertThat(segment.referenceCount()).isEqualTo(2);
        segment.close();
        assertThat(segment.referenceCount()).as("after close, one view left").isEqualTo(1);
        assertThat(second.toString(StandardCharsets.US_ASCII)).isEqualTo("ello");

        assertThat(second.release()).isTrue();
        assertThat(segment.referenceCount()).as("after the last release: unmapped").isZero();
        assertThatThrownBy(() -> segment.read(0, 1)).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void derivedBuffersShareTheViewReference() {
        MmapSegment segment = open("derived");
        write(segment, 100, "abcdef");
        ByteBuf view = segment.read(100, 6);
        ByteBuf slice = view.retainedSlice(2, 3);
        view.release();
        segment.close();
        assertThat(segment.referenceCount()).isEqualTo(1);
        assertThat(slice.toString(StandardCharsets.US_ASCII)).isEqualTo("cde");
        slice.release();
        assertThat(segment.referenceCount()).isZero();
    }

    @Test
    void secondReleaseOfViewLeavesSegmentCountAlone() {
        MmapSegment segment = open("twice");
        ByteBuf view = segment.read(0, 8);
        view.release();
        assertThatThrownBy(view::release).isInstanceOf(IllegalReferenceCountException.class);
        assertThat(segment.referenceCount()).isEqualTo(1);
        segment.close();
        assertThat(segment.referenceCount()).isZero();
    }

    @Test
    void viewsAreReadOnly() {
        MmapSegment segment = open("read-only");
        ByteBuf view = segment.read(0, 8);
        try {
            assertThat(view.isReadOnly()).isTrue();
            assertThat(view.isDirect()).as("zero-copy view of the mapping").isTrue();
            assertThatThrownBy(() -> view.setByte(0, 1)).isInstanceOf(java.nio.ReadOnlyBufferException.class);
        } finally {
            view.release();
            segment.close();
        }
    }

    @Test
    void deleteRemovesFileOnLastRelease() {
        MmapSegment segment = open("deleted");
        ByteBuf view = segment.read(0, 4);
        segment.delete();
        assertThat(segment.path()).exists();
        view.release();
        assertThat(segment.path()).doesNotExist();
        assertThat(segment.referenceCount()).isZero();
    }

    @Test
    void backendForgetsClosedSegments() {
        MmapSegment segment = open("forgotten");
        segment.close();
        backend.close();
        assertThat(segment.referenceCount()).isZero();
    }
}
