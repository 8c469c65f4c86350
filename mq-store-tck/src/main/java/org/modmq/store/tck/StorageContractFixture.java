package org.modmq.store.tck;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;
import org.modmq.api.spi.storage.Segment;
import org.modmq.api.spi.storage.StorageBackend;
import org.modmq.testkit.NettyLeakCheck;

/**
 * Base of the storage contract: creates one backend per test under a fresh temporary directory and
 * closes it afterwards, and offers helpers that copy bytes out of read views and release them.
 *
 * <p>After each test the fixture fails the test when Netty reported a leaked buffer (see
 * {@link NettyLeakCheck}; it is installed when this class initialises, before the tests allocate
 * any buffer).
 *
 * <p>Backend authors do not extend this class directly; they extend {@link StorageBackendContractTest}.
 * Not thread-safe except where a helper says so; JUnit creates one instance per test method.
 */
public abstract class StorageContractFixture {

    static {
        NettyLeakCheck.install();
    }

    /** For subclasses; JUnit creates one instance per test method. */
    protected StorageContractFixture() {
    }

    /** Fresh directory per test; segment files are created directly inside it. */
    @TempDir
    protected Path storeRoot;

    private StorageBackend backend;

    /**
     * Creates the backend under test. Called once before each test, and again by tests that reopen
     * files with a new backend instance. The fixture closes every backend it created.
     *
     * @param storeRoot the directory the test keeps its segment files in
     */
    protected abstract StorageBackend createBackend(Path storeRoot);

    /**
     * The segment capacity the contract tests use, in bytes. The default, 64 KiB, is a multiple of
     * every common block size; override it when a backend needs another granularity. It must be at
     * least 16 KiB and a multiple of 4096.
     */
    protected int capacity() {
        return 64 * 1024;
    }

    @BeforeEach
    protected final void openFixtureBackend() {
        backend = createBackend(storeRoot);
        assertThat(backend).as("createBackend result").isNotNull();
    }

    @AfterEach
    protected final void closeFixtureBackend() {
        if (backend != null) {
            backend.close();
        }
        NettyLeakCheck.check();
    }

    /** The backend created for the current test. */
    protected final StorageBackend backend() {
        return backend;
    }

    /** A file path for a segment called {@code name} inside {@link #storeRoot}. */
    protected final Path segmentFile(String name) {
        return storeRoot.resolve(name);
    }

    /** Opens (or creates) segment {@code name} with {@link #capacity()} on the fixture's backend. */
    protected final Segment openSegment(String name) {
        return backend.open(segmentFile(name), capacity());
    }

    /**
     * Deterministic test bytes: {@code length} bytes derived from {@code seed}, never all zero.
     */
    protected static byte[] pattern(int seed, int length) {
        byte[] bytes = new byte[length];
        int state = seed * 0x9E3779B1 + 0x7F4A7C15;
        for (int i = 0; i < length; i++) {
            state = state * 1103515245 + 12345;
            bytes[i] = (byte) ((state >>> 16) | 1);
        }
        return bytes;
    }

    /** Writes {@code bytes} at {@code position} from a heap buffer that this method releases. */
    protected static void write(Segment segment, int position, byte[] bytes) {
        ByteBuf source = Unpooled.wrappedBuffer(bytes);
        try {
            segment.write(position, source);
        } finally {
            source.release();
        }
    }

    /**
     * Reads {@code length} bytes at {@code position}, copies them out and releases the view, checking
     * on the way that the view has the requested size and a reference count of one. Thread-safe as far
     * as the segment's reads are.
     */
    protected static byte[] readBytes(Segment segment, int position, int length) {
        ByteBuf view = segment.read(position, length);
        try {
            assertThat(view.refCnt()).as("refCnt of a fresh view").isEqualTo(1);
            assertThat(view.readableBytes()).as("readable bytes of read(%d, %d)", position, length)
                    .isEqualTo(length);
            return ByteBufUtil.getBytes(view);
        } finally {
            view.release();
        }
    }

    /** Concatenation of byte arrays. */
    protected static byte[] concat(byte[]... parts) {
        int total = 0;
        for (byte[] part : parts) {
            total += part.length;
        }
        byte[] all = new byte[total];
        int at = 0;
        for (byte[] part : parts) {
            System.arraycopy(part, 0, all, at, part.length);
            at += part.length;
        }
        return all;
    }
}
