package org.modmq.store.mmap;

import java.util.List;
import java.util.Objects;
import org.modmq.api.config.ConfigKey;
import org.modmq.api.config.PluginConfig;
import org.modmq.api.spi.PluginContext;
import org.modmq.api.spi.storage.StorageBackend;
import org.modmq.api.spi.storage.StorageBackendProvider;

/**
 * Provider of the {@code mmap} storage backend ({@code storeBackend=mmap}).
 *
 * <p>Declares four keys ({@link #configKeys()}):
 * <ul>
 *   <li>{@code warmMapedFileEnable} (boolean, default {@code false}, RocketMQ's spelling): fault every
 *       page of a segment into memory when it is opened.</li>
 *   <li>{@code mmapChunkSize} (bytes, default 2 MiB, at least 4096): how much of a segment file one
 *       mapping covers; chunks are mapped on first access.</li>
 *   <li>{@code mmapIdleMappingBytes} (bytes, default 128 MiB): how many bytes of idle, flushed chunk
 *       mappings stay mapped for reuse; the rest are unmapped, so their pages leave the broker's
 *       resident set (they stay in the page cache).</li>
 *   <li>{@code mmapSyscallWriteBytes} (bytes, default 16 KiB, 0 turns it off): writes at least this large
 *       (a batch's append) use {@code pwrite} into the page cache instead of the mapping.</li>
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

    /** Configuration key of the size from which a write uses a system call instead of the mapping. */
    public static final String SYSCALL_WRITE_KEY = "mmapSyscallWriteBytes";

    private static final List<ConfigKey> KEYS = List.of(ConfigKey.bool(WARM_KEY, false,
            "mmap backend: touch every page of a segment when it is opened, so that first writes do not fault "
                    + "(RocketMQ's spelling)."),
            ConfigKey.bytes(CHUNK_SIZE_KEY, MmapStorageBackend.CHUNK_SIZE, 4096, Integer.MAX_VALUE,
                    "mmap backend: bytes of a segment file one mapping covers; chunks are mapped on first access."),
            ConfigKey.bytes(IDLE_BYTES_KEY, MmapStorageBackend.IDLE_MAPPING_BUDGET, 0, Long.MAX_VALUE,
                    "mmap backend: bytes of idle, flushed chunk mappings kept mapped for reuse; the rest are "
                            + "unmapped and leave the resident set (the page cache keeps them)."),
            ConfigKey.bytes(SYSCALL_WRITE_KEY, MmapStorageBackend.SYSCALL_WRITE_BYTES, 0, Integer.MAX_VALUE,
                    "mmap backend: writes of at least this many bytes (a batch's append) use pwrite instead of the "
                            + "mapping: no page faults, no TLB shoot-downs at the flush; 0: every write uses the mapping."));

    /** Creates the provider; it holds no state. */
    public MmapStorageBackendProvider() {
        // Required by ServiceLoader on the class path.
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public List<ConfigKey> configKeys() {
        return KEYS;
    }

    /**
     * Creates a backend. It needs no probing: every JDK file system that supports {@code FileChannel.map}
     * works, and unmapping falls back to the garbage collector when {@code sun.misc.Unsafe} is missing.
     */
    @Override
    public StorageBackend create(PluginConfig config, PluginContext context) {
        Objects.requireNonNull(config, "config");
        Objects.requireNonNull(context, "context");
        return new MmapStorageBackend(config.bool(WARM_KEY), (int) config.longValue(CHUNK_SIZE_KEY),
                config.longValue(IDLE_BYTES_KEY), (int) config.longValue(SYSCALL_WRITE_KEY));
    }
}
