package org.modmq.examples.filechannel;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Objects;
import java.util.function.Consumer;
import org.modmq.api.spi.storage.Segment;
import org.modmq.api.spi.storage.StorageException;

/**
 * A segment file behind one {@link FileChannel}. Reads copy into heap buffers, so a view holds no file
 * resource and stays readable after close. Threads as the SPI says: one writer, one flusher, many
 * readers; positional {@code FileChannel} calls need no lock among them.
 */
final class FileChannelSegment implements Segment {

    private final Path path;
    private final int capacity;
    private final FileChannel channel;
    private final Consumer<FileChannelSegment> onClose;
    private final Object lifecycle = new Object();
    private volatile boolean closed;
    private volatile int durable;

    FileChannelSegment(Path path, int capacity, FileChannel channel, Consumer<FileChannelSegment> onClose) {
        this.path = path;
        this.capacity = capacity;
        this.channel = channel;
        this.onClose = onClose;
    }

    @Override
    public Path path() {
        return path;
    }

    @Override
    public int capacity() {
        return capacity;
    }

    @Override
    public void write(int position, ByteBuf source) {
        Objects.requireNonNull(source, "source");
        int length = source.readableBytes();
        checkRange(position, length);
        checkOpen();
        ByteBuffer bytes = source.nioBuffer(source.readerIndex(), length);
        try {
            long at = position;
            while (bytes.hasRemaining()) {
                at += channel.write(bytes, at);
            }
        } catch (IOException e) {
            throw new StorageException("cannot write " + length + " bytes at " + position + " of " + path, e);
        }
    }

    @Override
    public ByteBuf read(int position, int length) {
        checkRange(position, length);
        checkOpen();
        ByteBuffer bytes = ByteBuffer.allocate(length);
        try {
            while (bytes.hasRemaining()) {
                int read = channel.read(bytes, (long) position + bytes.position());
                if (read < 0) {
                    break; // past the end: the rest reads as zero
                }
            }
        } catch (IOException e) {
            throw new StorageException("cannot read " + length + " bytes at " + position + " of " + path, e);
        }
        bytes.clear();
        return Unpooled.wrappedBuffer(bytes).asReadOnly();
    }

    @Override
    public void flush(int upTo) {
        if (upTo < 0 || upTo > capacity) {
            throw new IndexOutOfBoundsException("upTo " + upTo + " outside [0, " + capacity + "]");
        }
        checkOpen();
        if (upTo <= durable) {
            return;
        }
        try {
            channel.force(false);
        } catch (IOException e) {
            throw new StorageException("cannot force " + path, e);
        }
        synchronized (lifecycle) {
            durable = Math.max(durable, upTo);
        }
    }

    @Override
    public int durablePosition() {
        return durable;
    }

    @Override
    public void close() {
        synchronized (lifecycle) {
            if (closed) {
                return;
            }
            closed = true;
        }
        try {
            channel.close();
        } catch (IOException e) {
            throw new StorageException("cannot close " + path, e);
        } finally {
            onClose.accept(this);
        }
    }

    @Override
    public void delete() {
        close();
        try {
            Files.deleteIfExists(path);
        } catch (IOException e) {
            throw new StorageException("cannot delete " + path, e);
        }
    }

    private void checkRange(int position, int length) {
        if (position < 0 || length < 0 || position > capacity - length) {
            throw new IndexOutOfBoundsException(
                    "range [" + position + ", " + position + "+" + length + ") outside [0, " + capacity + "]");
        }
    }

    private void checkOpen() {
        if (closed) {
            throw new IllegalStateException(path + " is closed");
        }
    }
}
