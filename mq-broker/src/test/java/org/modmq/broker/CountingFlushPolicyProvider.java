package org.modmq.broker;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.modmq.api.config.ConfigKey;
import org.modmq.api.config.PluginConfig;
import org.modmq.api.spi.ProviderRegistry;
import org.modmq.api.spi.flush.FlushContext;
import org.modmq.api.spi.flush.FlushPolicy;
import org.modmq.api.spi.flush.FlushPolicyProvider;

/**
 * A third-party flush policy as a test defines one: {@code flushDiskType=COUNTING_FLUSH}, one key of its
 * own; it counts appends and leaves the forcing to the bundled ASYNC_FLUSH policy.
 */
final class CountingFlushPolicyProvider implements FlushPolicyProvider {

    static final String NAME = "COUNTING_FLUSH";
    static final String REPORT_KEY = "countingFlushReportEvery";

    final AtomicReference<PluginConfig> created = new AtomicReference<>();
    final AtomicLong appends = new AtomicLong();
    volatile boolean started;

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public List<ConfigKey> configKeys() {
        return List.of(ConfigKey.integer(REPORT_KEY, 100, 1, 1_000_000, "appends between two reports"));
    }

    @Override
    public FlushPolicy create(PluginConfig config, FlushContext context) {
        created.set(config);
        FlushPolicyProvider async = ProviderRegistry.load(FlushPolicyProvider.class).get("ASYNC_FLUSH");
        FlushPolicy inner = async.create(PluginConfig.of(async.configKeys(), config.values()), context);
        return new FlushPolicy() {
            @Override
            public String name() {
                return NAME;
            }

            @Override
            public void start() {
                inner.start();
                started = true;
            }

            @Override
            public CompletableFuture<Long> appended(long endOffset) {
                appends.incrementAndGet();
                return inner.appended(endOffset);
            }

            @Override
            public boolean synchronous() {
                return false;
            }

            @Override
            public void close() {
                inner.close();
            }
        };
    }
}
