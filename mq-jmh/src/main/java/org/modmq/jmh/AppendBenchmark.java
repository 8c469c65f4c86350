package org.modmq.jmh;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.modmq.api.message.PutStatus;
import org.modmq.store.PutResult;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Throughput of {@code putMessage(message).join()}: one 1 KiB message per operation, answered only when
 * the flush policy says so. With {@code SYNC_FLUSH} that means after a force, so the 16-thread variant
 * shows how well group commit shares one force among waiting producers; with {@code ASYNC_FLUSH} the
 * future is already complete and the numbers show the append and dispatch path alone.
 *
 * <p>One store per trial (a fresh directory, deleted at tear-down), shared by all benchmark threads.
 * Producer threads spread over {@value #QUEUES} queues of one topic.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 3, time = 3)
@Fork(value = 1, jvmArgsAppend = {"-Xmx1g", "-XX:MaxDirectMemorySize=1g"})
public class AppendBenchmark {

    static final int QUEUES = 4;

    /** Storage backend provider name. */
    @Param({"mmap", "direct"})
    public String storeBackend;

    /** Flush policy provider name. */
    @Param({"ASYNC_FLUSH", "SYNC_FLUSH"})
    public String flushDiskType;

    private BenchmarkStore store;
    private BenchmarkMessages messages;
    private final AtomicInteger nextQueue = new AtomicInteger();

    /** The queue one benchmark thread writes to. */
    @State(Scope.Thread)
    public static class Producer {

        int queueId;

        @Setup(Level.Trial)
        public void pickQueue(AppendBenchmark benchmark) {
            queueId = Math.floorMod(benchmark.nextQueue.getAndIncrement(), QUEUES);
        }
    }

    @Setup(Level.Trial)
    public void open() {
        messages = new BenchmarkMessages();
        store = BenchmarkStore.open(storeBackend, flushDiskType);
    }

    @TearDown(Level.Trial)
    public void close() {
        store.close();
    }

    @Benchmark
    @Threads(1)
    public PutResult append1Thread(Producer producer) {
        return put(producer);
    }

    @Benchmark
    @Threads(16)
    public PutResult append16Threads(Producer producer) {
        return put(producer);
    }

    private PutResult put(Producer producer) {
        PutResult result = store.store().putMessage(messages.next(producer.queueId)).join();
        if (result.status() != PutStatus.PUT_OK) {
            throw new IllegalStateException("put answered " + result.status() + ": " + result.detail());
        }
        return result;
    }
}
