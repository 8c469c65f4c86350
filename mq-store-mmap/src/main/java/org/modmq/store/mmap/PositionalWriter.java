package org.modmq.store.mmap;

import io.netty.buffer.ByteBuf;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Writes a segment's large appends with {@code pwrite} instead of through its mapping. The bytes land in
 * the same page cache, so the chunk mappings see them at once; but the writer takes no page fault per
 * 4 KiB, and since no writable page-table entry points at those pages, the flush's write-back does not
 * have to write-protect them, which costs an inter-processor TLB shoot-down per page while another core
 * runs the broker (the batch profile's largest single kernel cost).
 *
 * <p>The channel is opened on the first such write and kept until {@link #close()}. Threads: the
 * segment's one writer; {@code close} after the last access.
 */
final class PositionalWriter {

    private final Path path;
    private FileChannel channel;

    PositionalWriter(Path path) {
        this.path = path;
    }

    /** Writes all readable bytes of {@code source} at {@code position}; the source's indexes are not moved. */
    void write(ByteBuf source, int position) throws IOException {
        FileChannel open = channel;
        if (open == null) {
            open = FileChannel.open(path, StandardOpenOption.WRITE);
            channel = open;
        }
        if (source.nioBufferCount() == 1) {
            ByteBuffer bytes = source.nioBuffer(source.readerIndex(), source.readableBytes());
            long at = position;
            while (bytes.hasRemaining()) {
                at += open.write(bytes, at);
            }
            return;
        }
        // A batch's records: one gathering write (the channel is this writer's alone, so its position is too).
        ByteBuffer[] parts = source.nioBuffers(source.readerIndex(), source.readableBytes());
        long left = source.readableBytes();
        open.position(position);
        while (left > 0) {
            left -= open.write(parts);
        }
    }

    /** Closes the channel, if one was opened. */
    void close() throws IOException {
        FileChannel open = channel;
        channel = null;
        if (open != null) {
            open.close();
        }
    }
}
