package org.modmq.store.flush;

import org.modmq.api.config.ConfigValues;
import org.modmq.api.spi.flush.FlushContext;
import org.modmq.api.spi.flush.FlushPolicy;
import org.modmq.api.spi.flush.FlushTarget;
import org.modmq.api.spi.flush.FlushPolicyProvider;

/** {@code flushDiskType=SYNC_FLUSH}: group commit; reads {@code syncFlushTimeout} (ms, default 5000). */
public final class SyncFlushPolicyProvider implements FlushPolicyProvider {

    public SyncFlushPolicyProvider() {
        // for ServiceLoader
    }

    @Override
    public String name() {
        return "SYNC_FLUSH";
    }

    @Override
    public FlushPolicy create(ConfigValues config, FlushContext context) {
        FlushTarget target = new TimedFlushTarget(context.target(), context.plugin().metrics(), name());
        return new GroupCommitFlushPolicy(target, context.plugin().clock(), context.plugin().scheduler(),
                config.longValue("syncFlushTimeout", 5000));
    }
}
