package org.modmq.store.direct;

import org.modmq.api.config.ConfigException;
import org.modmq.api.config.ConfigValues;

/**
 * The direct backend's settings, read once from the broker's {@link ConfigValues}. Immutable.
 *
 * @param writeBufferBytes bytes of the staging buffer each written segment holds ({@value #WRITE_BUFFER_KEY})
 * @param readCacheBytes bytes of the backend's shared read cache, 0 to disable it ({@value #READ_CACHE_KEY})
 */
record DirectConfig(int writeBufferBytes, long readCacheBytes) {

    static final String WRITE_BUFFER_KEY = "directWriteBufferBytes";
    static final String READ_CACHE_KEY = "directReadCacheBytes";
    static final int DEFAULT_WRITE_BUFFER_BYTES = 4 * 1024 * 1024;
    static final long DEFAULT_READ_CACHE_BYTES = 8L * 1024 * 1024;

    DirectConfig {
        if (writeBufferBytes <= 0) {
            throw new ConfigException(WRITE_BUFFER_KEY + "=" + writeBufferBytes + " must be positive");
        }
        if (readCacheBytes < 0) {
            throw new ConfigException(READ_CACHE_KEY + "=" + readCacheBytes + " must not be negative");
        }
    }

    /** Reads this backend's keys; other keys are ignored. */
    static DirectConfig from(ConfigValues config) {
        return new DirectConfig(config.intValue(WRITE_BUFFER_KEY, DEFAULT_WRITE_BUFFER_BYTES),
                config.longValue(READ_CACHE_KEY, DEFAULT_READ_CACHE_BYTES));
    }
}
