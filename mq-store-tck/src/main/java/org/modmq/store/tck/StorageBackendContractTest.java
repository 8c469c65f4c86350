package org.modmq.store.tck;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.modmq.api.spi.storage.Segment;

/**
 * The storage contract every {@link org.modmq.api.spi.storage.StorageBackend} must pass. A backend's
 * test sources subclass it and implement {@link #createBackend(java.nio.file.Path)}:
 *
 * <pre>{@code
 * class MyStorageBackendTest extends StorageBackendContractTest {
 *     @Override
 *     protected StorageBackend createBackend(Path storeRoot) {
 *         MyStorageBackendProvider provider = new MyStorageBackendProvider();
 *         return provider.create(PluginConfig.of(provider.configKeys(), ConfigValues.empty()), contextFor(storeRoot));
 *     }
 * }
 * }</pre>
 *
 * <p>The inherited tests cover positional writes and reads (unaligned, across 4 KiB blocks, rewrites
 * of a partly written tail), zeroes where nothing was written, read views (read-only or detached,
 * reference-counted, valid after close), source buffer ownership, flush and durable positions,
 * reopening with a new backend, argument and bounds checks, the closed state, deletion after the last
 * view, backend close, and readers running concurrently with a writer. Each test creates its own
 * backend under a fresh temporary directory and releases every buffer it obtains, so running with
 * {@code -Dio.netty.leakDetection.level=paranoid} points leaks at the backend.
 *
 * <p>Override {@link #capacity()} when the default 64 KiB segments do not suit the backend.
 */
@Timeout(60)
public abstract class StorageBackendContractTest extends SegmentLifecycleContract {

    private static final int READERS = 3;
    private static final long CONCURRENCY_DEADLINE_SECONDS = 20;

    /** For subclasses; JUnit creates one instance per test method. */
    protected StorageBackendContractTest() {
    }

    @Test
    public void hasName() {
        assertThat(backend().name()).isNotNull().isNotBlank();
    }

    @Test
    public void readersSeePublishedRecordsWhileWriterAppends() throws Exception {
        int capacity = capacity() * Math.max(1, (1 << 20) / capacity());
        try (Segment segment = backend().open(segmentFile("concurrent"), capacity)) {
            AppendedRecords records = new AppendedRecords(segment);
            AtomicBoolean stop = new AtomicBoolean();
            ExecutorService pool = Executors.newFixedThreadPool(READERS + 1);
            try {
                List<Future<Integer>> readers = new ArrayList<>();
                for (int i = 0; i < READERS; i++) {
                    readers.add(pool.submit(() -> records.verifyAll(stop)));
                }
                Future<Integer> writer = pool.submit(() -> records.appendAll(stop));
                int appended = await(writer, "the writer to fill the segment");
                assertThat(appended).as("records appended").isGreaterThan(10);
                for (Future<Integer> reader : readers) {
                    assertThat(await(reader, "a reader to verify every record"))
                            .as("records verified by a reader").isEqualTo(appended);
                }
            } finally {
                stop.set(true);
                pool.shutdownNow();
                assertThat(pool.awaitTermination(CONCURRENCY_DEADLINE_SECONDS, TimeUnit.SECONDS))
                        .as("reader and writer threads ended").isTrue();
            }
        }
    }

    private static int await(Future<Integer> task, String what) throws InterruptedException {
        try {
            return task.get(CONCURRENCY_DEADLINE_SECONDS, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            throw new AssertionError("failed while waiting for " + what, e.getCause());
        } catch (TimeoutException e) {
            throw new AssertionError("timed out after " + CONCURRENCY_DEADLINE_SECONDS + " s waiting for "
                    + what, e);
        }
    }
}
