package org.modmq.store.direct;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.util.Objects;

/**
 * Positional, block-aligned I/O on one file opened with O_DIRECT. Checks alignment before every call,
 * because the kernel answers a misaligned O_DIRECT request with a bare EINVAL. Not thread-safe on its
 * own: the owning segment serialises calls.
 */
final class SegmentFile implements AutoCloseable {

    private final Path path;
    private final FileChannel channel;
    private final BlockGeometry geometry;

    SegmentFile(Path path, FileChannel channel, BlockGeometry geometry) {
        this.path = Objects.requireNonNull(path, "path");
        this.channel = Objects.requireNonNull(channel, "channel");
        this.geometry = Objects.requireNonNull(geometry, "geometry");
    }

    Path path() {
        return path;
    }

    BlockGeometry geometry() {
        return geometry;
    }

    /** Fills {@code target} from {@code position}; bytes past the end of the file read as zero. */
    void readFully(ByteBuffer target, long position) throws IOException {
        checkAligned(target, position);
        long at = position;
        while (target.hasRemaining()) {
            int read = channel.read(target, at);
            // A short O_DIRECT read ends only at the end of the file, possibly mid-block, where a further
            // read would be misaligned.
            if (read < 0 || (read > 0 && target.hasRemaining() && !geometry.isAligned(at + read))) {
                while (target.hasRemaining()) {
                    target.put((byte) 0);
                }
                return;
            }
            at += read;
        }
    }

    /** Writes all of {@code source} at {@code position}, without forcing it. */
    void writeFully(ByteBuffer source, long position) throws IOException {
        checkAligned(source, position);
        long at = position;
        while (source.hasRemaining()) {
            at += channel.write(source, at);
        }
    }

    /** Forces written data to the device; metadata only as far as reading it back needs. */
    void force() throws IOException {
        channel.force(false);
    }

    @Override
    public void close() throws IOException {
        channel.close();
    }

    private void checkAligned(ByteBuffer buffer, long position) {
        if (!geometry.isAligned(position) || !geometry.isAligned(buffer.remaining())
                || buffer.alignmentOffset(buffer.position(), geometry.blockSize()) != 0) {
            throw new IllegalArgumentException("misaligned direct I/O on " + path + ": position " + position
                    + ", length " + buffer.remaining() + ", block size " + geometry.blockSize());
        }
    }
}
