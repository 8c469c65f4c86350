package org.modmq.store.mmap;

import java.util.Objects;
import org.modmq.api.config.ConfigException;
import org.modmq.api.config.ConfigValues;
import org.modmq.api.spi.PluginContext;
import org.modmq.api.spi.storage.StorageBackend;
import org.modmq.api.spi.storage.StorageBackendProvider;

/**
 * Provider of the {@code mmap} storage backend ({@code storeBackend=mmap}).
 *
 * <p>Keys read from the broker configuration:
 * <ul>
 *   <li>{@code warmMapedFileEnable} (boolean, default {@code false}, RocketMQ's spelling): fault every
 *       page of a segment into memory when it is opened.</li>
 *   <li>{@code mmapChunkSize} (int bytes, default 2 MiB): how much of a segment file one mapping
 *       covers; chunks are mapped on first access.</li>
 *   <li>{@code mmapIdleMappingBytes} (long bytes, default 128 MiB): how many bytes of idle, flushed
 *       chunk mappings stay mapped for reuse; the rest are unmapped, so their pages leave the
 *       broker's resident set (they stay in the page cache).</li>
 * </ul>
 *
 * <p>Stateless and thread-safe; the public no-arg constructor is what {@link java.util.ServiceLoader}
 * calls on the class path.
 */
public final class MmapStorageBackendProvider implements StorageBackendProvider {

    /** The provider name. */
    public static final String NAME = "mmap";

    /** Configuration key that enables warming segments at open. */
    public static final String WARM_KEY = "warmMapedFileEnable";

    /** Configuration key of the bytes per chunk mapping. */
    public static final String CHUNK_SIZE_KEY = "mmapChunkSize";

    /** Configuration key of the bytes of idle chunk mappings kept mapped. */
    public static final String IDLE_BYTES_KEY = "mmapIdleMappingBytes";

    /** Creates the provider; it holds no state. */
    public MmapStorageBackendProvider() {
        // Required by ServiceLoader on the class path.
    }

    @Override
    public String name() {
        return NAME;
    }

    /**
     * Creates a backend. It needs no probing: every JDK file system that supports {@code FileChannel.map}
     * works, and unmapping falls back to the garbage collector when {@code sun.misc.Unsafe} is missing.
     *
     * @throws ConfigException when {@code warmMapedFileEnable} is not a boolean, the chunk size is not
     *         a positive number or the idle bytes not a number &ge; 0
     */
    @Override
    public StorageBackend create(ConfigValues config, PluginContext context) {
        Objects.requireNonNull(config, "config");
        Objects.requireNonNull(context, "context");
        boolean warm = config.bool(WARM_KEY, false);
        int chunkSize = config.intValue(CHUNK_SIZE_KEY, MmapStorageBackend.CHUNK_SIZE);
        if (chunkSize <= 0) {
            throw new ConfigException(CHUNK_SIZE_KEY + "=" + chunkSize + " must be a positive number of bytes");
        }
        long idleBytes = config.longValue(IDLE_BYTES_KEY, MmapStorageBackend.IDLE_MAPPING_BUDGET);
        if (idleBytes < 0) {
            throw new ConfigException(IDLE_BYTES_KEY + "=" + idleBytes + " must not be negative");
        }
        return new MmapStorageBackend(warm, chunkSize, idleBytes);
    }
}
