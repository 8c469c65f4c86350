package org.modmq.ha.pull;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import java.io.ByteArrayOutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import org.modmq.api.config.ConfigValues;
import org.modmq.api.message.BrokerMessage;
import org.modmq.api.message.MessageProperties;
import org.modmq.api.message.PutStatus;
import org.modmq.api.spi.PluginContext;
import org.modmq.api.spi.replication.ReplicatedLog;
import org.modmq.store.MessageStore;
import org.modmq.store.PutResult;

/** Settings, messages and bounded waits for the replication tests. */
final class TestStores {

    static final int SEGMENT = 1024 * 1024;
    static final InetSocketAddress HOST = new InetSocketAddress("127.0.0.1", 40000);
    static final Duration WAIT = Duration.ofSeconds(20);

    private TestStores() {
    }

    static ConfigValues storeValues() {
        return ConfigValues.of(Map.of("storeBackend", "mmap", "flushDiskType", "ASYNC_FLUSH",
                "mappedFileSizeCommitLog", String.valueOf(SEGMENT), "mappedFileSizeConsumeQueue", "60000",
                "maxHashSlotNum", "1000", "maxIndexNum", "4000"));
    }

    /** HA settings for tests: ephemeral port on 127.0.0.1. */
    static ConfigValues haValues() {
        return storeValues().with("haListenPort", "0").with("brokerIP1", "127.0.0.1");
    }

    /** A classic master ({@code ASYNC_MASTER} or {@code SYNC_MASTER}). */
    static ConfigValues classicMaster(String role) {
        return haValues().with("brokerRole", role);
    }

    /** A classic slave following nobody until told. */
    static ConfigValues classicSlave() {
        return haValues().with("brokerRole", "SLAVE");
    }

    /** A controller-mode broker (starts as a replica of nobody) with broker id {@code brokerId}. */
    static ConfigValues controller(long brokerId) {
        return haValues().with("enableControllerMode", "true").with("brokerId", String.valueOf(brokerId));
    }

    static PluginContext plugin(Path root, ScheduledExecutorService scheduler) {
        return new PluginContext(Clock.systemUTC(), scheduler, ByteBufAllocator.DEFAULT, root);
    }

    static BrokerMessage message(String topic, int queueId, String body) {
        String props = MessageProperties.encode(Map.of(MessageProperties.UNIQ_KEY, "K" + body.hashCode()));
        return new BrokerMessage(topic, queueId, 0, body.getBytes(StandardCharsets.UTF_8), props,
                1_700_000_000_000L, HOST, HOST, 0, 0, 0L);
    }

    /** Puts {@code count} messages of about {@code size} bytes round-robin over 4 queues; returns the end. */
    static long putMany(MessageStore store, String prefix, int count, int size) throws Exception {
        long end = 0;
        String pad = "p".repeat(size);
        for (int i = 0; i < count; i++) {
            PutResult result = store.putMessage(message("TopicR", i % 4, prefix + i + pad)).get(10, TimeUnit.SECONDS);
            if (result.status() != PutStatus.PUT_OK) {
                throw new IllegalStateException("put failed: " + result.status() + " " + result.detail());
            }
            end = result.endOffset();
        }
        return end;
    }

    static byte[] bytes(ReplicatedLog log, long from, long to) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        long at = from;
        while (at < to) {
            ByteBuf chunk = log.read(at, (int) Math.min(256 * 1024, to - at));
            try {
                byte[] copy = new byte[chunk.readableBytes()];
                chunk.getBytes(chunk.readerIndex(), copy);
                out.write(copy, 0, copy.length);
                at += copy.length;
            } finally {
                chunk.release();
            }
        }
        return out.toByteArray();
    }

    /** Polls {@code condition} until it holds; fails naming {@code what} after {@code timeout}. */
    static void await(String what, Duration timeout, BooleanSupplier condition) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out after " + timeout.toMillis() + " ms waiting for " + what);
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(10));
        }
    }

    /** {@link #await} with {@link #WAIT}. */
    static void await(String what, BooleanSupplier condition) {
        await(what, WAIT, condition);
    }
}
