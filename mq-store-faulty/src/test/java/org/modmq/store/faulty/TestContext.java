package org.modmq.store.faulty;

import io.netty.buffer.UnpooledByteBufAllocator;
import java.nio.file.Path;
import java.time.Clock;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import org.modmq.api.spi.PluginContext;

/** A plugin context on a daemon scheduler shared by the tests of this module. */
final class TestContext {

    private static final ScheduledExecutorService SCHEDULER = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread thread = new Thread(r, "faulty-test-scheduler");
        thread.setDaemon(true);
        return thread;
    });

    private TestContext() {
    }

    static PluginContext of(Path storeRoot) {
        return new PluginContext(Clock.systemUTC(), SCHEDULER, UnpooledByteBufAllocator.DEFAULT, storeRoot);
    }
}
