package org.modmq.store.flush;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import io.netty.buffer.ByteBufAllocator;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;
import org.modmq.api.config.ConfigValues;
import org.modmq.api.config.PluginConfig;
import org.modmq.api.spi.PluginContext;
import org.modmq.api.spi.flush.FlushContext;
import org.modmq.api.spi.flush.FlushPolicy;
import org.modmq.api.message.PutStatus;
import org.modmq.api.message.PutStatusException;
import org.modmq.api.spi.ProviderRegistry;
import org.modmq.api.spi.flush.FlushPolicyProvider;
import org.modmq.api.spi.flush.FlushTarget;

@Timeout(30)
class FlushPolicyTest {

    private final ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor();

    @TempDir
    Path storeRoot;

    @AfterEach
    void stop() {
        scheduler.shutdownNow();
    }

    /** A target whose first force waits until {@code gate} opens. */
    static class GatedTarget implements FlushTarget {
        final AtomicLong written = new AtomicLong();
        final AtomicLong durable = new AtomicLong();
        final AtomicInteger forces = new AtomicInteger();
        final CountDownLatch gate;

        GatedTarget(CountDownLatch gate) {
            this.gate = gate;
        }

        @Override
        public long writtenOffset() {
            return written.get();
        }

        @Override
        public long durableOffset() {
            return durable.get();
        }

        @Override
        public long flush() {
            long target = written.get();
            try {
                gate.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            forces.incrementAndGet();
            durable.accumulateAndGet(target, Math::max);
            return durable.get();
        }
    }

    @Test
    void groupCommitServesManyAppendsWithFewForces() throws Exception {
        CountDownLatch gate = new CountDownLatch(1);
        GatedTarget target = new GatedTarget(gate);
        try (GroupCommitFlushPolicy policy = new GroupCommitFlushPolicy(target, Clock.systemUTC(), scheduler, 10_000)) {
            List<CompletableFuture<Long>> futures = new ArrayList<>();
            for (int i = 1; i <= 200; i++) {
                target.written.set(i * 100L);
                futures.add(policy.appended(i * 100L));
            }
            gate.countDown();
            CompletableFuture.allOf(futures.toArray(CompletableFuture[]::new)).get(10, TimeUnit.SECONDS);
            assertThat(target.forces.get()).isLessThanOrEqualTo(3).isLessThan(futures.size());
            assertThat(futures.get(199).get()).isGreaterThanOrEqualTo(20_000L);
        }
    }

    @Test
    void answersFlushDiskTimeoutWhenForceHangs() {
        CountDownLatch gate = new CountDownLatch(1);
        GatedTarget target = new GatedTarget(gate);
        try (GroupCommitFlushPolicy policy = new GroupCommitFlushPolicy(target, Clock.systemUTC(), scheduler, 200)) {
            target.written.set(100);
            CompletableFuture<Long> future = policy.appended(100);
            assertThatThrownBy(() -> future.get(10, TimeUnit.SECONDS)).isInstanceOf(ExecutionException.class)
                    .cause().isInstanceOf(PutStatusException.class)
                    .extracting(e -> ((PutStatusException) e).status()).isEqualTo(PutStatus.FLUSH_DISK_TIMEOUT);
            gate.countDown();
        }
    }

    @Test
    void asyncPolicyCompletesAtOnceAndForcesLater() throws Exception {
        GatedTarget target = new GatedTarget(new CountDownLatch(0));
        try (PeriodicFlushPolicy policy = new PeriodicFlushPolicy(target, 20, 4096)) {
            target.written.set(10);
            assertThat(policy.appended(10)).isDone();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (target.durable.get() < 10 && System.nanoTime() < deadline) {
                Thread.onSpinWait();
            }
            assertThat(target.durable.get()).as("forced within the interval").isEqualTo(10);
        }
    }

    @Test
    void asyncPolicyByDefaultForcesOnlyOnItsInterval() throws Exception {
        GatedTarget target = new GatedTarget(new CountDownLatch(0));
        try (FlushPolicy policy = asyncPolicy(target, ConfigValues.empty().with("flushIntervalCommitLog", "60000"))) {
            assertThat(((PeriodicFlushPolicy) policy).wakeBytes()).as("appends wake nothing (RocketMQ's default)")
                    .isZero();
            target.written.set(1 << 20);
            assertThat(policy.appended(1 << 20)).isDone();
        }
        assertThat(target.durable.get()).as("forced on close").isEqualTo(1 << 20);
    }

    @Test
    void asyncPolicyWithWakeFlushWhenPutMessageForcesOnceLeastPagesAreWritten() throws Exception {
        GatedTarget target = new GatedTarget(new CountDownLatch(0));
        ConfigValues values = ConfigValues.empty().with("flushIntervalCommitLog", "60000")
                .with("wakeFlushWhenPutMessage", "true").with("flushCommitLogLeastPages", "4");
        try (FlushPolicy policy = asyncPolicy(target, values)) {
            assertThat(((PeriodicFlushPolicy) policy).wakeBytes()).isEqualTo(4 * 4096);
            target.written.set(4 * 4096);
            policy.appended(4 * 4096);
            assertThat(durableWithin10s(target, 4 * 4096)).as("forced long before the interval").isEqualTo(4 * 4096);
        }
    }

    @Test
    void asyncPolicyForcesALogHeldInTheProcessAsWritesArriveUnlessToldNotTo() throws Exception {
        GatedTarget held = new GatedTarget(new CountDownLatch(0)) {
            @Override
            public boolean holdsWritesInProcess() {
                return true;
            }
        };
        ConfigValues slow = ConfigValues.empty().with("flushIntervalCommitLog", "60000");
        try (FlushPolicy policy = asyncPolicy(held, slow)) {
            assertThat(((PeriodicFlushPolicy) policy).wakeBytes()).isEqualTo(4 * 4096);
            held.written.set(4 * 4096);
            policy.appended(4 * 4096);
            assertThat(durableWithin10s(held, 4 * 4096)).as("a kill -9 would lose what the process holds")
                    .isEqualTo(4 * 4096);
        }
        try (FlushPolicy policy = asyncPolicy(held, slow.with("wakeFlushWhenPutMessage", "false"))) {
            assertThat(((PeriodicFlushPolicy) policy).wakeBytes()).as("the operator's explicit choice").isZero();
        }
    }

    /** The target's durable offset once it reaches {@code offset}, or after 10 s. */
    private static long durableWithin10s(GatedTarget target, long offset) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (target.durable.get() < offset && System.nanoTime() < deadline) {
            Thread.sleep(1);
        }
        return target.durable.get();
    }

    private FlushPolicy asyncPolicy(FlushTarget target, ConfigValues values) {
        AsyncFlushPolicyProvider provider = new AsyncFlushPolicyProvider();
        FlushPolicy policy = provider.create(PluginConfig.of(provider.configKeys(), values), new FlushContext(
                new PluginContext(Clock.systemUTC(), scheduler, ByteBufAllocator.DEFAULT, storeRoot), target));
        policy.start();
        return policy;
    }

    @Test
    void providersAreFoundByName() {
        ProviderRegistry<FlushPolicyProvider> registry = ProviderRegistry.load(FlushPolicyProvider.class);
        assertThat(registry.names()).contains("SYNC_FLUSH", "ASYNC_FLUSH");
        assertThat(registry.get("SYNC_FLUSH")).isInstanceOf(SyncFlushPolicyProvider.class);
        ConfigValues.empty();
    }
}
