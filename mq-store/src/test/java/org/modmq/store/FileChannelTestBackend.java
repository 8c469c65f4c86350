package org.modmq.store;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.atomic.AtomicInteger;
import org.modmq.api.spi.storage.Segment;
import org.modmq.api.spi.storage.StorageBackend;
import org.modmq.api.spi.storage.StorageException;

/** A simple test backend: positional FileChannel I/O, reads copy onto the heap. Counts forces. */
public final class FileChannelTestBackend implements StorageBackend {

    public final AtomicInteger forces = new AtomicInteger();
    /** Segment reads so far (a test that must not read back what it wrote counts them). */
    public final AtomicInteger reads = new AtomicInteger();

    @Override
    public String name() {
        return "test-filechannel";
    }

    @Override
    public Segment open(Path file, int capacity) {
        try {
            boolean exists = Files.exists(file);
            FileChannel channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.READ,
                    StandardOpenOption.WRITE);
            if (exists && channel.size() != capacity) {
                channel.close();
                throw new IllegalArgumentException(file + " has " + channel.size() + " bytes, not " + capacity);
            }
            if (!exists) {
                channel.write(ByteBuffer.wrap(new byte[1]), capacity - 1);
            }
            return new TestSegment(file, capacity, channel);
        } catch (IOException e) {
            throw new StorageException("open " + file, e);
        }
    }

    @Override
    public void close() {
    }

    private final class TestSegment implements Segment {
        private final Path path;
        private final int capacity;
        private final FileChannel channel;
        private volatile int durable;
        private volatile boolean closed;

        TestSegment(Path path, int capacity, FileChannel channel) {
            this.path = path;
            this.capacity = capacity;
            this.channel = channel;
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
            check();
            if (position < 0 || position + source.readableBytes() > capacity) {
                throw new IndexOutOfBoundsException(position + "+" + source.readableBytes());
            }
            try {
                ByteBuffer nio = source.nioBuffer();
                int at = position;
                while (nio.hasRemaining()) {
                    at += channel.write(nio, at);
                }
            } catch (IOException e) {
                throw new StorageException("write " + path, e);
            }
        }

        @Override
        public ByteBuf read(int position, int length) {
            check();
            reads.incrementAndGet();
            if (position < 0 || length < 0 || position + length > capacity) {
                throw new IndexOutOfBoundsException(position + "+" + length);
            }
            ByteBuffer out = ByteBuffer.allocate(length);
            try {
                while (out.hasRemaining()) {
                    if (channel.read(out, position + out.position()) < 0) {
                        break;
                    }
                }
            } catch (IOException e) {
                throw new StorageException("read " + path, e);
            }
            out.clear();
            return Unpooled.wrappedBuffer(out);
        }

        @Override
        public void flush(int upTo) {
            check();
            try {
                channel.force(false);
                forces.incrementAndGet();
                durable = Math.max(durable, upTo);
            } catch (IOException e) {
                throw new StorageException("force " + path, e);
            }
        }

        @Override
        public int durablePosition() {
            return durable;
        }

        @Override
        public void close() {
            if (!closed) {
                closed = true;
                try {
                    channel.close();
                } catch (IOException e) {
                    throw new StorageException("close " + path, e);
                }
            }
        }

        @Override
        public void delete() {
            close();
            try {
                Files.deleteIfExists(path);
            } catch (IOException e) {
                throw new StorageException("delete " + path, e);
            }
        }

        private void check() {
            if (closed) {
                throw new IllegalStateException(path + " is closed");
            }
        }
    }
}
