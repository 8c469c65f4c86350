package org.modmq.store.direct;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.FileStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.modmq.api.spi.storage.StorageException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Finds a directory's block size and proves, once, that its file system accepts O_DIRECT: writes one
 * aligned block to a scratch file, reads it back and compares. Stateless and thread-safe.
 */
final class DirectIoProbe {

    private static final Logger LOG = LoggerFactory.getLogger(DirectIoProbe.class);

    private DirectIoProbe() {
    }

    /**
     * The block geometry of the file store holding {@code directory}, which is created when missing.
     *
     * @throws StorageException when the block size cannot be learnt
     */
    static BlockGeometry geometryOf(Path directory) {
        try {
            Files.createDirectories(directory);
            FileStore store = Files.getFileStore(directory);
            long blockSize = store.getBlockSize();
            if (blockSize <= 0 || blockSize > Integer.MAX_VALUE / 2 || Long.bitCount(blockSize) != 1) {
                throw new IOException("file store " + store + " reports block size " + blockSize);
            }
            return new BlockGeometry((int) blockSize);
        } catch (IOException e) {
            throw new StorageException("cannot learn the block size of " + directory + ": " + e, e);
        } catch (UnsupportedOperationException e) {
            throw new StorageException("cannot learn the block size of " + directory + ": " + e, new IOException(e));
        }
    }

    /**
     * Probes {@code directory} with one aligned O_DIRECT write and read.
     *
     * @return the directory's block geometry
     * @throws StorageException whose message says that O_DIRECT is not supported, naming the directory,
     *     its file system type and the cause, when the file system refuses it
     */
    static BlockGeometry probe(Path directory, ChannelOpener opener) {
        BlockGeometry geometry = geometryOf(directory);
        Path scratch;
        try {
            scratch = Files.createTempFile(directory, ".direct-io-probe-", ".tmp");
        } catch (IOException e) {
            throw new StorageException("cannot create a probe file in " + directory + ": " + e, e);
        }
        try {
            writeAndReadBack(scratch, geometry, opener);
            return geometry;
        } catch (IOException e) {
            throw refused(directory, e);
        } catch (UnsupportedOperationException e) {
            throw refused(directory, new IOException(e));
        } finally {
            deleteScratch(scratch);
        }
    }

    private static void writeAndReadBack(Path scratch, BlockGeometry geometry, ChannelOpener opener)
            throws IOException {
        ByteBuffer written = geometry.allocate(geometry.blockSize());
        for (int i = 0; i < written.capacity(); i++) {
            written.put(i, (byte) (i * 31 + 7));
        }
        ByteBuffer read = geometry.allocate(geometry.blockSize());
        try (FileChannel channel = opener.open(scratch, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            SegmentFile file = new SegmentFile(scratch, channel, geometry);
            file.writeFully(written.duplicate(), 0);
            file.force();
            file.readFully(read, 0);
        }
        if (!read.flip().equals(written.clear())) {
            throw new IOException("a block written with O_DIRECT read back different bytes");
        }
    }

    private static StorageException refused(Path directory, IOException cause) {
        return new StorageException("O_DIRECT is not supported in " + directory + " (file system "
                + fileSystemType(directory) + "): " + cause
                + "; put storePathRootDir on a file system that supports direct I/O or choose storeBackend=mmap",
                cause);
    }

    private static String fileSystemType(Path directory) {
        try {
            return Files.getFileStore(directory).type();
        } catch (IOException e) {
            return "unknown (" + e + ")";
        }
    }

    private static void deleteScratch(Path scratch) {
        try {
            Files.deleteIfExists(scratch);
        } catch (IOException e) {
            LOG.warn("cannot delete probe file {}", scratch, e);
        }
    }
}
