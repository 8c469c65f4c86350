package org.modmq.store.direct;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.ReadableByteChannel;
import java.nio.channels.WritableByteChannel;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/** A file channel that counts the positional reads, writes and forces it passes on. */
final class CountingChannel extends FileChannel {

    /** Counts shared by every channel one opener opens. */
    static final class Counts {
        final AtomicInteger reads = new AtomicInteger();
        final AtomicLong readBytes = new AtomicLong();
        final AtomicInteger writes = new AtomicInteger();
        final AtomicInteger forces = new AtomicInteger();

        ChannelOpener opener() {
            return (file, options) -> new CountingChannel(ChannelOpener.DIRECT.open(file, options), this);
        }
    }

    private final FileChannel delegate;
    private final Counts counts;

    CountingChannel(FileChannel delegate, Counts counts) {
        this.delegate = delegate;
        this.counts = counts;
    }

    @Override
    public int read(ByteBuffer dst, long position) throws IOException {
        counts.reads.incrementAndGet();
        int read = delegate.read(dst, position);
        counts.readBytes.addAndGet(Math.max(0, read));
        return read;
    }

    @Override
    public int write(ByteBuffer src, long position) throws IOException {
        counts.writes.incrementAndGet();
        return delegate.write(src, position);
    }

    @Override
    public void force(boolean metaData) throws IOException {
        counts.forces.incrementAndGet();
        delegate.force(metaData);
    }

    @Override
    public int read(ByteBuffer dst) throws IOException {
        return delegate.read(dst);
    }

    @Override
    public long read(ByteBuffer[] dsts, int offset, int length) throws IOException {
        return delegate.read(dsts, offset, length);
    }

    @Override
    public int write(ByteBuffer src) throws IOException {
        return delegate.write(src);
    }

    @Override
    public long write(ByteBuffer[] srcs, int offset, int length) throws IOException {
        return delegate.write(srcs, offset, length);
    }

    @Override
    public long position() throws IOException {
        return delegate.position();
    }

    @Override
    public FileChannel position(long newPosition) throws IOException {
        delegate.position(newPosition);
        return this;
    }

    @Override
    public long size() throws IOException {
        return delegate.size();
    }

    @Override
    public FileChannel truncate(long size) throws IOException {
        delegate.truncate(size);
        return this;
    }

    @Override
    public long transferTo(long position, long count, WritableByteChannel target) throws IOException {
        return delegate.transferTo(position, count, target);
    }

    @Override
    public long transferFrom(ReadableByteChannel src, long position, long count) throws IOException {
        return delegate.transferFrom(src, position, count);
    }

    @Override
    public MappedByteBuffer map(MapMode mode, long position, long size) throws IOException {
        return delegate.map(mode, position, size);
    }

    @Override
    public FileLock lock(long position, long size, boolean shared) throws IOException {
        return delegate.lock(position, size, shared);
    }

    @Override
    public FileLock tryLock(long position, long size, boolean shared) throws IOException {
        return delegate.tryLock(position, size, shared);
    }

    @Override
    protected void implCloseChannel() throws IOException {
        delegate.close();
    }
}
