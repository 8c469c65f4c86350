package org.modmq.store.direct;

import java.util.List;
import org.modmq.api.config.ConfigException;
import org.modmq.api.config.ConfigKey;
import org.modmq.api.config.ConfigValues;
import org.modmq.api.config.PluginConfig;

/**
 * The direct backend's settings, read once from its {@link PluginConfig}. Immutable.
 *
 * @param writeBufferBytes bytes of the staging buffer each written segment holds ({@value #WRITE_BUFFER_KEY})
 * @param readCacheBytes bytes of the backend's shared read cache, 0 to disable it ({@value #READ_CACHE_KEY})
 */
record DirectConfig(int writeBufferBytes, long readCacheBytes) {

    static final String WRITE_BUFFER_KEY = "directWriteBufferBytes";
    static final String READ_CACHE_KEY = "directReadCacheBytes";
    static final int DEFAULT_WRITE_BUFFER_BYTES = 4 * 1024 * 1024;
    static final long DEFAULT_READ_CACHE_BYTES = 8L * 1024 * 1024;

    /** The keys the provider declares. */
    static final List<ConfigKey> KEYS = List.of(
            ConfigKey.bytes(WRITE_BUFFER_KEY, DEFAULT_WRITE_BUFFER_BYTES, 4096, Integer.MAX_VALUE,
                    "direct backend: staging buffer of each written segment, rounded down to whole blocks "
                            + "(at least one block, at most the segment), allocated on its first write."),
            ConfigKey.bytes(READ_CACHE_KEY, DEFAULT_READ_CACHE_BYTES, 0, Integer.MAX_VALUE,
                    "direct backend: cache of recently read 64 KiB chunks shared by all segments (a read of several chunks at once bypasses it); 0 turns it off."));

    DirectConfig {
        if (writeBufferBytes <= 0) {
            throw new ConfigException(WRITE_BUFFER_KEY + "=" + writeBufferBytes + " must be positive");
        }
        if (readCacheBytes < 0) {
            throw new ConfigException(READ_CACHE_KEY + "=" + readCacheBytes + " must not be negative");
        }
    }

    /** Parses this backend's keys from {@code values} (tests). */
    static DirectConfig from(ConfigValues values) {
        return from(PluginConfig.of(KEYS, values));
    }

    /** Reads this backend's keys. */
    static DirectConfig from(PluginConfig config) {
        return new DirectConfig((int) config.longValue(WRITE_BUFFER_KEY), config.longValue(READ_CACHE_KEY));
    }
}
