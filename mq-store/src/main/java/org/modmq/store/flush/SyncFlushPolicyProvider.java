package org.modmq.store.flush;

import org.modmq.api.config.PluginConfig;
import org.modmq.api.spi.flush.FlushContext;
import org.modmq.api.spi.flush.FlushPolicy;
import org.modmq.api.spi.flush.FlushTarget;
import org.modmq.api.spi.flush.FlushPolicyProvider;

/**
 * {@code flushDiskType=SYNC_FLUSH}: group commit, a send is answered after the force that covers it.
 * Declares no keys: its timeout is the broker's {@code syncFlushTimeout} (ms, default 5000), which the
 * broker also uses to bound a lease-gated answer in controller mode. Stateless and thread-safe.
 */
public final class SyncFlushPolicyProvider implements FlushPolicyProvider {

    public SyncFlushPolicyProvider() {
        // for ServiceLoader
    }

    @Override
    public String name() {
        return "SYNC_FLUSH";
    }

    @Override
    public FlushPolicy create(PluginConfig config, FlushContext context) {
        FlushTarget target = new TimedFlushTarget(context.target(), context.plugin().metrics(), name());
        return new GroupCommitFlushPolicy(target, context.plugin().clock(), context.plugin().scheduler(),
                config.values().longValue("syncFlushTimeout", 5000));
    }
}
