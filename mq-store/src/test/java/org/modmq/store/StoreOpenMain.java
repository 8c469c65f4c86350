package org.modmq.store;

import io.netty.buffer.ByteBufAllocator;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import org.modmq.api.config.ConfigValues;
import org.modmq.api.spi.PluginContext;

/**
 * Child process of {@link StoreOpenTimingTest}: opens the store in a fresh JVM (cold code, as a restarted
 * broker), prints each phase of the open as {@code PHASE <ms> <name>}, closes it and puts the abort file
 * back. Arguments: backend name, store root, CommitLog segment size.
 */
public final class StoreOpenMain {

    private StoreOpenMain() {
    }

    public static void main(String[] args) throws Exception {
        Path root = Path.of(args[1]);
        ScheduledExecutorService scheduler = Executors.newScheduledThreadPool(2);
        ConfigValues config = ConfigValues.of(Map.of("storeBackend", args[0], "flushDiskType", "ASYNC_FLUSH",
                "storePathRootDir", root.toString(), "mappedFileSizeCommitLog", args[2]));
        long started = System.nanoTime();
        MessageStore store = MessageStore.open(config,
                new PluginContext(Clock.systemUTC(), scheduler, ByteBufAllocator.DEFAULT, root));
        double total = (System.nanoTime() - started) / 1e6;
        store.openPhases().forEach((phase, ms) -> System.out.printf("PHASE %.1f %s%n", ms, phase));
        System.out.printf("PHASE %.1f TOTAL (MessageStore.open, cold JVM)%n", total);
        store.close();
        scheduler.shutdownNow();
        Files.createFile(root.resolve("abort"));
    }
}
