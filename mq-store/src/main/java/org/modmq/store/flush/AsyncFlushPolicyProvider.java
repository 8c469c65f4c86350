package org.modmq.store.flush;

import java.util.List;
import org.modmq.api.config.ConfigKey;
import org.modmq.api.config.PluginConfig;
import org.modmq.api.spi.flush.FlushContext;
import org.modmq.api.spi.flush.FlushPolicy;
import org.modmq.api.spi.flush.FlushTarget;
import org.modmq.api.spi.flush.FlushPolicyProvider;

/**
 * {@code flushDiskType=ASYNC_FLUSH}: periodic force, a send is answered once its bytes are written.
 * Stateless and thread-safe.
 */
public final class AsyncFlushPolicyProvider implements FlushPolicyProvider {

    static final String INTERVAL_KEY = "flushIntervalCommitLog";
    static final String LEAST_PAGES_KEY = "flushCommitLogLeastPages";

    private static final List<ConfigKey> KEYS = List.of(
            ConfigKey.millis(INTERVAL_KEY, 500, 1, 600_000,
                    "How often the CommitLog is forced (RocketMQ's key)."),
            ConfigKey.integer(LEAST_PAGES_KEY, 4, 0, 1 << 20,
                    "A periodic force waits until at least this many 4 KiB pages are unforced (RocketMQ's key)."));

    public AsyncFlushPolicyProvider() {
        // for ServiceLoader
    }

    @Override
    public String name() {
        return "ASYNC_FLUSH";
    }

    @Override
    public List<ConfigKey> configKeys() {
        return KEYS;
    }

    @Override
    public FlushPolicy create(PluginConfig config, FlushContext context) {
        FlushTarget target = new TimedFlushTarget(context.target(), context.plugin().metrics(), name());
        return new PeriodicFlushPolicy(target, config.longValue(INTERVAL_KEY),
                config.intValue(LEAST_PAGES_KEY) * 4096L);
    }
}
