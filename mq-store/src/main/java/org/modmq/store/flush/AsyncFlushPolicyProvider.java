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
 * As in RocketMQ, an append does not wake the force unless {@code wakeFlushWhenPutMessage=true}: forcing
 * every few pages of a mapped file write-protects each page again while it is still being written (a page
 * fault and, with the writer on another core, a TLB shoot-down per page), which cost a third of the broker's
 * CPU per message under sync sends. Stateless and thread-safe.
 */
public final class AsyncFlushPolicyProvider implements FlushPolicyProvider {

    static final String INTERVAL_KEY = "flushIntervalCommitLog";
    static final String LEAST_PAGES_KEY = "flushCommitLogLeastPages";
    static final String WAKE_KEY = "wakeFlushWhenPutMessage";

    private static final List<ConfigKey> KEYS = List.of(
            ConfigKey.millis(INTERVAL_KEY, 500, 1, 600_000,
                    "How often the CommitLog is forced (RocketMQ's key)."),
            ConfigKey.integer(LEAST_PAGES_KEY, 4, 0, 1 << 20,
                    "With wakeFlushWhenPutMessage, an append that leaves at least this many 4 KiB pages unforced "
                            + "starts a force at once (RocketMQ's key)."),
            ConfigKey.bool(WAKE_KEY, false,
                    "Force as soon as flushCommitLogLeastPages pages are unforced, not only every "
                            + "flushIntervalCommitLog: a power loss takes back less, at a CPU cost (RocketMQ's key). "
                            + "Unset, true for a backend that holds writes in the process (direct)."));

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
        // A backend that keeps written bytes in the process (direct's staging buffer) would lose up to an
        // interval of acknowledged messages to a kill -9: unless told otherwise, it is forced as writes arrive.
        boolean explicit = config.values().get(WAKE_KEY).filter(v -> !v.isEmpty()).isPresent();
        boolean wake = explicit ? config.bool(WAKE_KEY) : context.target().holdsWritesInProcess();
        long wakeBytes = wake ? config.intValue(LEAST_PAGES_KEY) * 4096L : 0;
        return new PeriodicFlushPolicy(target, config.longValue(INTERVAL_KEY), wakeBytes);
    }
}
