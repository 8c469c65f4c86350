package org.modmq.jmh;

import io.netty.buffer.ByteBufAllocator;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.security.CodeSource;
import java.time.Clock;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.modmq.api.config.ConfigValues;
import org.modmq.api.spi.PluginContext;
import org.modmq.store.MessageStore;

/**
 * A {@link MessageStore} in a fresh directory, opened by name through the store's public
 * {@link MessageStore#open(ConfigValues, PluginContext)} (backend and flush policy found by
 * {@code ServiceLoader}), with the scheduler it needs. Closing closes the store, stops the scheduler and
 * deletes the directory.
 *
 * <p>The directory sits under the build's {@code target/} (the directory holding this class's jar or
 * class folder), overridable with {@code -Dmodmq.bench.dir}. It is never tmpfs on purpose: the direct
 * backend needs a file system that supports {@code O_DIRECT}.
 *
 * <p>Threads: {@link #store()} is as thread-safe as the store; open and close from one thread.
 */
final class BenchmarkStore implements AutoCloseable {

    /** Bytes per CommitLog segment: large enough that rolling is rare within one iteration. */
    static final String SEGMENT_BYTES = String.valueOf(256 * 1024 * 1024);

    private final Path dir;
    private final ScheduledExecutorService scheduler;
    private final MessageStore store;
    private boolean closed;

    private BenchmarkStore(Path dir, ScheduledExecutorService scheduler, MessageStore store) {
        this.dir = dir;
        this.scheduler = scheduler;
        this.store = store;
    }

    /**
     * Opens a store on backend {@code storeBackend} ({@code mmap}, {@code direct}) with flush policy
     * {@code flushDiskType} ({@code SYNC_FLUSH}, {@code ASYNC_FLUSH}) in a new directory.
     *
     * @throws UncheckedIOException when the directory cannot be created
     */
    static BenchmarkStore open(String storeBackend, String flushDiskType) {
        Objects.requireNonNull(storeBackend, "storeBackend");
        Objects.requireNonNull(flushDiskType, "flushDiskType");
        Path dir;
        try {
            Path base = baseDir();
            Files.createDirectories(base);
            dir = Files.createTempDirectory(base, "store-" + storeBackend + "-");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create a store directory", e);
        }
        ConfigValues values = ConfigValues.of(Map.of(
                "storeBackend", storeBackend,
                "flushDiskType", flushDiskType,
                "storePathRootDir", dir.toString(),
                "mappedFileSizeCommitLog", SEGMENT_BYTES,
                // ~42 MB index files instead of the ~420 MB default: keeps the heap-free footprint small.
                "maxHashSlotNum", "500000",
                "maxIndexNum", "2000000"));
        ScheduledExecutorService scheduler = Executors.newScheduledThreadPool(1, runnable -> {
            Thread thread = new Thread(runnable, "modmq-bench-scheduler");
            thread.setDaemon(true);
            return thread;
        });
        try {
            PluginContext context = new PluginContext(Clock.systemUTC(), scheduler, ByteBufAllocator.DEFAULT, dir);
            return new BenchmarkStore(dir, scheduler, MessageStore.open(values, context));
        } catch (RuntimeException e) {
            scheduler.shutdownNow();
            deleteQuietly(dir, e);
            throw e;
        }
    }

    /** The open store. */
    MessageStore store() {
        return store;
    }

    /** Closes the store, stops the scheduler and deletes the directory. Idempotent. */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        RuntimeException failure = null;
        try {
            store.close();
        } catch (RuntimeException e) {
            failure = e;
        }
        scheduler.shutdownNow();
        try {
            if (!scheduler.awaitTermination(10, TimeUnit.SECONDS) && failure == null) {
                failure = new IllegalStateException("scheduler did not stop within 10 s");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        try {
            delete(dir);
        } catch (IOException e) {
            UncheckedIOException deleteFailure = new UncheckedIOException("cannot delete " + dir, e);
            if (failure == null) {
                failure = deleteFailure;
            } else {
                failure.addSuppressed(deleteFailure);
            }
        }
        if (failure != null) {
            throw failure;
        }
    }

    private static Path baseDir() {
        String override = System.getProperty("modmq.bench.dir");
        if (override != null && !override.isBlank()) {
            return Path.of(override);
        }
        Path fallback = Path.of("target", "bench-stores");
        CodeSource source = BenchmarkStore.class.getProtectionDomain().getCodeSource();
        if (source == null || source.getLocation() == null) {
            return fallback;
        }
        try {
            // target/mq-jmh-benchmarks.jar or target/classes: either way its parent is target/.
            Path parent = Path.of(source.getLocation().toURI()).getParent();
            return parent == null ? fallback : parent.resolve("bench-stores");
        } catch (URISyntaxException e) {
            return fallback;
        }
    }

    private static void deleteQuietly(Path dir, RuntimeException primary) {
        try {
            delete(dir);
        } catch (IOException e) {
            primary.addSuppressed(e);
        }
    }

    private static void delete(Path root) throws IOException {
        if (!Files.exists(root)) {
            return;
        }
        Files.walkFileTree(root, new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
                Files.delete(file);
                return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult postVisitDirectory(Path dir, IOException failure) throws IOException {
                if (failure != null) {
                    throw failure;
                }
                Files.delete(dir);
                return FileVisitResult.CONTINUE;
            }
        });
    }
}
