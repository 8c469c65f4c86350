package org.modmq.store.flush;

import org.modmq.api.config.ConfigValues;
import org.modmq.api.spi.flush.FlushContext;
import org.modmq.api.spi.flush.FlushPolicy;
import org.modmq.api.spi.flush.FlushTarget;
import org.modmq.api.spi.flush.FlushPolicyProvider;

/**
 * {@code flushDiskType=ASYNC_FLUSH}: periodic force; reads {@code flushIntervalCommitLog} (ms, default
 * 500) and {@code flushCommitLogLeastPages} (4 KiB pages, default 4).
 */
public final class AsyncFlushPolicyProvider implements FlushPolicyProvider {

    public AsyncFlushPolicyProvider() {
        // for ServiceLoader
    }

    @Override
    public String name() {
        return "ASYNC_FLUSH";
    }

    @Override
    public FlushPolicy create(ConfigValues config, FlushContext context) {
        FlushTarget target = new TimedFlushTarget(context.target(), context.plugin().metrics(), name());
        return new PeriodicFlushPolicy(target, config.longValue("flushIntervalCommitLog", 500),
                config.longValue("flushCommitLogLeastPages", 4) * 4096L);
    }
}
