package org.modmq.store.tck;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import io.netty.buffer.ByteBufAllocator;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.modmq.api.config.ConfigKey;
import org.modmq.api.config.ConfigValues;
import org.modmq.api.config.PluginConfig;
import org.modmq.api.spi.PluginContext;
import org.modmq.api.spi.flush.FlushContext;
import org.modmq.api.spi.flush.FlushPolicy;
import org.modmq.api.spi.flush.FlushPolicyProvider;
import org.modmq.api.spi.flush.FlushTarget;

/**
 * The flush-policy contract every {@link FlushPolicyProvider} must pass, over an in-memory
 * {@link FlushTarget} that records forces. A policy's test sources subclass it and return the provider:
 *
 * <pre>{@code
 * class MyFlushPolicyContractTest extends FlushPolicyContractTest {
 *     @Override
 *     protected FlushPolicyProvider provider() {
 *         return new MyFlushPolicyProvider();
 *     }
 * }
 * }</pre>
 *
 * <p>The inherited tests cover the declared keys (unique, described, defaults that parse), the product's
 * name, the create/start/close lifecycle (close forces what was written and is idempotent), and the
 * futures of {@link FlushPolicy#appended(long)}: every one completes, and a synchronous policy's only
 * once the target is durable up to the append. Override {@link #settings()} to run with other values.
 */
@Timeout(60)
public abstract class FlushPolicyContractTest {

    private static final long WAIT_SECONDS = 20;

    @TempDir
    Path storeRoot;

    private ScheduledExecutorService scheduler;
    private final RecordingTarget target = new RecordingTarget();

    /** For subclasses; JUnit creates one instance per test method. */
    protected FlushPolicyContractTest() {
    }

    /** The provider under test; a new instance or a shared stateless one. */
    protected abstract FlushPolicyProvider provider();

    /** The settings the policy is created with; none by default, so the declared defaults apply. */
    protected ConfigValues settings() {
        return ConfigValues.empty();
    }

    @BeforeEach
    void startScheduler() {
        scheduler = Executors.newScheduledThreadPool(2, runnable -> {
            Thread thread = new Thread(runnable, "flush-contract");
            thread.setDaemon(true);
            return thread;
        });
    }

    @AfterEach
    void stopScheduler() throws InterruptedException {
        scheduler.shutdownNow();
        assertThat(scheduler.awaitTermination(WAIT_SECONDS, TimeUnit.SECONDS)).as("scheduler stopped").isTrue();
    }

    /** Creates and starts a policy over this test's target, as the store does. */
    protected final FlushPolicy open() {
        FlushPolicyProvider provider = provider();
        FlushPolicy policy = provider.create(PluginConfig.of(provider.configKeys(), settings()),
                new FlushContext(new PluginContext(Clock.systemUTC(), scheduler, ByteBufAllocator.DEFAULT, storeRoot),
                        target));
        policy.start();
        return policy;
    }

    @Test
    public void declaresUniqueDescribedKeysWhoseDefaultsParse() {
        List<ConfigKey> keys = provider().configKeys();
        assertThat(keys).as("configKeys()").isNotNull();
        Set<String> names = new HashSet<>();
        for (ConfigKey key : keys) {
            assertThat(names.add(key.name())).as("declared once: " + key.name()).isTrue();
            assertThat(key.description()).as("description of " + key.name()).isNotBlank();
        }
        assertThatCode(() -> PluginConfig.of(keys, ConfigValues.empty())).doesNotThrowAnyException();
    }

    @Test
    public void policyIsNamedAsItsProvider() {
        try (FlushPolicy policy = open()) {
            assertThat(policy.name()).isEqualTo(provider().name());
        }
    }

    @Test
    public void everyAppendCompletesAndASynchronousOneOnlyOnceDurable() throws Exception {
        List<CompletableFuture<Long>> futures = new ArrayList<>();
        List<Long> ends = new ArrayList<>();
        try (FlushPolicy policy = open()) {
            for (int i = 1; i <= 200; i++) {
                long end = i * 100L;
                target.write(end);
                ends.add(end);
                futures.add(policy.appended(end));
            }
            for (int i = 0; i < futures.size(); i++) {
                long durable = futures.get(i).get(WAIT_SECONDS, TimeUnit.SECONDS);
                if (policy.synchronous()) {
                    assertThat(durable).as("durable offset answered for the append ending at " + ends.get(i))
                            .isGreaterThanOrEqualTo(ends.get(i));
                }
            }
            if (policy.synchronous()) {
                assertThat(target.durableOffset()).isEqualTo(target.writtenOffset());
            }
        }
    }

    @Test
    public void closeForcesWhatIsWrittenAndIsIdempotent() {
        FlushPolicy policy = open();
        target.write(4096);
        policy.appended(4096);
        policy.close();
        assertThat(target.durableOffset()).as("durable after close").isEqualTo(4096);
        assertThatCode(policy::close).as("second close").doesNotThrowAnyException();
    }

    /** An in-memory log: {@link #flush()} makes everything written durable and counts the forces. */
    private static final class RecordingTarget implements FlushTarget {

        private final AtomicLong written = new AtomicLong();
        private final AtomicLong durable = new AtomicLong();
        private final AtomicLong forces = new AtomicLong();

        void write(long end) {
            written.accumulateAndGet(end, Math::max);
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
            forces.incrementAndGet();
            return durable.accumulateAndGet(written.get(), Math::max);
        }
    }
}
