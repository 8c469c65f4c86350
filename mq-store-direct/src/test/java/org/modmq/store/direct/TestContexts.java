package org.modmq.store.direct;

import io.netty.buffer.ByteBufAllocator;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import org.modmq.api.spi.PluginContext;

/** A plugin context for tests; the caller shuts the scheduler down. */
final class TestContexts implements AutoCloseable {

    private final ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor(runnable -> {
        Thread thread = new Thread(runnable, "direct-test-scheduler");
        thread.setDaemon(true);
        return thread;
    });

    PluginContext contextFor(Path storeRoot) {
        return new PluginContext(Clock.fixed(Instant.EPOCH, ZoneOffset.UTC), scheduler, ByteBufAllocator.DEFAULT,
                storeRoot);
    }

    @Override
    public void close() {
        scheduler.shutdownNow();
    }
}
