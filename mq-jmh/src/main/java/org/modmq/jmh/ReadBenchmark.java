package org.modmq.jmh;

import io.netty.buffer.ByteBuf;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.function.LongPredicate;
import org.modmq.api.message.PutStatus;
import org.modmq.store.GetMessageResult;
import org.modmq.store.GetMessageStatus;
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
 * Throughput of pull reads: one operation is {@code getMessages(topic, 0, offset, 32, all tags, 256 KiB)}
 * on a queue pre-filled with {@link #messages} 1 KiB messages, touching the first and last eight bytes of
 * every returned record and then closing the result (releasing every buffer). {@code sequential} walks
 * the queue like a consumer and wraps at its end; {@code random} starts each read at a uniformly random
 * offset that still has 32 messages after it.
 *
 * <p>The pre-fill uses {@code ASYNC_FLUSH} and is not measured. The data (~{@code messages} KiB) fits in
 * the page cache, so this measures the store's read path (ConsumeQueue lookup, record views, the direct
 * backend's read cache and {@code pread}s), not the disk.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 3, time = 3)
@Fork(value = 1, jvmArgsAppend = {"-Xmx1g", "-XX:MaxDirectMemorySize=1g"})
@Threads(1)
public class ReadBenchmark {

    static final int BATCH = 32;
    static final int MAX_BYTES = 256 * 1024;
    private static final LongPredicate ALL_TAGS = tagsCode -> true;

    /** Storage backend provider name. */
    @Param({"mmap", "direct"})
    public String storeBackend;

    /** {@code sequential} or {@code random} start offsets. */
    @Param({"sequential", "random"})
    public String access;

    /** Messages pre-filled into queue 0. */
    @Param({"200000"})
    public int messages;

    private BenchmarkStore store;
    private boolean random;

    /** One consumer's position for sequential reads. */
    @State(Scope.Thread)
    public static class Cursor {

        long next;
    }

    @Setup(Level.Trial)
    public void fill() {
        if (messages < BATCH) {
            throw new IllegalArgumentException("messages=" + messages + " must be at least " + BATCH);
        }
        random = switch (access) {
            case "random" -> true;
            case "sequential" -> false;
            default -> throw new IllegalArgumentException("access=" + access + " is not one of [sequential, random]");
        };
        store = BenchmarkStore.open(storeBackend, "ASYNC_FLUSH");
        BenchmarkMessages source = new BenchmarkMessages();
        List<CompletableFuture<PutResult>> pending = new ArrayList<>(1024);
        for (int i = 0; i < messages; i++) {
            pending.add(store.store().putMessage(source.next(0)));
            if (pending.size() == 1024 || i == messages - 1) {
                for (CompletableFuture<PutResult> put : pending) {
                    PutResult result = put.join();
                    if (result.status() != PutStatus.PUT_OK) {
                        throw new IllegalStateException("pre-fill put answered " + result.status()
                                + ": " + result.detail());
                    }
                }
                pending.clear();
            }
        }
        long stored = store.store().getMaxOffsetInQueue(BenchmarkMessages.TOPIC, 0);
        if (stored != messages) {
            throw new IllegalStateException("queue holds " + stored + " messages, expected " + messages);
        }
    }

    @TearDown(Level.Trial)
    public void close() {
        store.close();
    }

    @Benchmark
    public long getMessages(Cursor cursor) {
        long offset = random ? ThreadLocalRandom.current().nextLong(messages - BATCH + 1) : cursor.next;
        try (GetMessageResult result = store.store().getMessages(BenchmarkMessages.TOPIC, 0, offset, BATCH,
                ALL_TAGS, MAX_BYTES)) {
            if (result.status() != GetMessageStatus.FOUND) {
                throw new IllegalStateException("read at " + offset + " answered " + result.status());
            }
            long touched = 0;
            for (ByteBuf record : result.messages()) {
                touched += record.getLong(record.readerIndex())
                        ^ record.getLong(record.writerIndex() - Long.BYTES);
            }
            cursor.next = result.nextBeginOffset() >= messages ? 0 : result.nextBeginOffset();
            return touched;
        }
    }
}
