package org.modmq.store.direct;

import java.util.List;
import java.util.Objects;
import org.modmq.api.config.ConfigKey;
import org.modmq.api.config.PluginConfig;
import org.modmq.api.spi.PluginContext;
import org.modmq.api.spi.storage.StorageBackend;
import org.modmq.api.spi.storage.StorageBackendProvider;
import org.modmq.api.spi.storage.StorageException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@code direct} storage backend ({@code storeBackend=direct}): segment files read and written with
 * O_DIRECT through block-aligned buffers, with no reliance on the page cache.
 *
 * <p>Each segment keeps the not-yet-written-out part of its file in an aligned staging buffer, so a
 * partly written block is rewritten in full when it is written out; {@code flush(upTo)} writes the
 * dirty blocks with positional O_DIRECT writes and then forces the file (for device caches and
 * metadata). Reads come from the staging buffer when it holds the range, else from the file through a
 * small pool of aligned buffers and a read cache shared by the backend's segments. Read views are
 * heap copies with a reference count of one, owned by the caller and valid after the segment closes.
 * Segment capacities must be multiples of the file store's block size.
 *
 * <p>Declared configuration keys ({@link #configKeys()}):
 * <ul>
 *   <li>{@code directWriteBufferBytes}: bytes of the staging buffer of each segment that has been
 *       written to, rounded down to whole blocks, at least one block, at most the segment's capacity;
 *       default 4194304 (4 MiB). A segment allocates it on its first write and holds it until closed.</li>
 *   <li>{@code directReadCacheBytes}: bytes of the backend-wide cache of recently read 64 KiB chunks;
 *       0 disables it; default 8388608 (8 MiB).</li>
 * </ul>
 *
 * <p>{@link #create} probes {@code storePathRootDir} with one aligned O_DIRECT write and read and fails
 * with a {@link StorageException} naming the path, its file system and the cause when direct I/O is
 * refused there (as on some network or older in-memory file systems).
 *
 * <p>Stateless and thread-safe; loaded by {@link java.util.ServiceLoader} through its public no-arg
 * constructor.
 */
public final class DirectStorageBackendProvider implements StorageBackendProvider {

    /** The name configuration uses: {@value}. */
    public static final String NAME = "direct";

    private static final Logger LOG = LoggerFactory.getLogger(DirectStorageBackendProvider.class);

    private final ChannelOpener opener;

    /** The provider that uses the JDK's O_DIRECT support. */
    public DirectStorageBackendProvider() {
        this(ChannelOpener.DIRECT);
    }

    /** A provider whose files are opened by {@code opener} (tests simulate a refusing file system). */
    DirectStorageBackendProvider(ChannelOpener opener) {
        this.opener = Objects.requireNonNull(opener, "opener");
    }

    @Override
    public List<ConfigKey> configKeys() {
        return DirectConfig.KEYS;
    }

    /** {@value #NAME}. */
    @Override
    public String name() {
        return NAME;
    }

    /**
     * {@inheritDoc}
     *
     * @throws StorageException when {@code context.storeRoot()} refuses O_DIRECT
     */
    @Override
    public StorageBackend create(PluginConfig config, PluginContext context) {
        Objects.requireNonNull(config, "config");
        Objects.requireNonNull(context, "context");
        DirectConfig settings = DirectConfig.from(config);
        BlockGeometry geometry = DirectIoProbe.probe(context.storeRoot(), opener);
        LOG.info("direct I/O works in {} (block size {} bytes); staging buffer {} bytes per segment, "
                + "read cache {} bytes", context.storeRoot(), geometry.blockSize(), settings.writeBufferBytes(),
                settings.readCacheBytes());
        return new DirectStorageBackend(settings, context.allocator(), opener);
    }
}
