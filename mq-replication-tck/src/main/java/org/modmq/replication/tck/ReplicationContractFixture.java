package org.modmq.replication.tck;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBufAllocator;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;
import org.modmq.api.config.ConfigValues;
import org.modmq.api.spi.PluginContext;
import org.modmq.api.spi.replication.ReplicationStrategyProvider;
import org.modmq.testkit.NettyLeakCheck;
import org.modmq.testkit.process.Await;
import org.modmq.testkit.process.FreePort;

/**
 * What the replication contract tests share: the provider under test, nodes on ports picked with
 * {@link FreePort}, bounded waits, log comparisons, and the clean-up after each test (every node closed,
 * no acknowledgement of bytes no replica held, no leaked buffer). A strategy's test subclasses
 * {@link ReplicationStrategyContractTest}, not this class.
 */
public abstract class ReplicationContractFixture {

    /** How long any wait for replication may take before the test fails. */
    protected static final Duration WAIT = Duration.ofSeconds(30);

    /** Segment size of every log in the kit, and the {@code mappedFileSizeCommitLog} the strategy is told. */
    protected static final int SEGMENT = 64 * 1024;

    static {
        NettyLeakCheck.install();
    }

    @TempDir
    Path storeRoot;

    private final List<ReplicationNode> nodes = new ArrayList<>();
    private ScheduledExecutorService scheduler;

    /** For subclasses; JUnit creates one instance per test method. */
    protected ReplicationContractFixture() {
    }

    /** The provider under test; a new instance or a shared stateless one. */
    protected abstract ReplicationStrategyProvider provider();

    /**
     * Extra settings for every node (the strategy's own keys, e.g. short redial delays). The kit sets the
     * broker keys it owns on top: {@code haListenPort}, {@code brokerIP1}, {@code brokerIP2}, {@code brokerId},
     * {@code enableControllerMode} and {@code mappedFileSizeCommitLog}.
     */
    protected Map<String, String> settings() {
        return Map.of();
    }

    /**
     * Cases this strategy knowingly does not meet, each with the reason. Such a case is aborted with its
     * reason (reported as skipped, never silently passed). None by default.
     */
    protected Map<ContractCase, String> deviations() {
        return Map.of();
    }

    @BeforeEach
    void startScheduler() {
        scheduler = Executors.newScheduledThreadPool(2, runnable -> {
            Thread thread = new Thread(runnable, "replication-contract");
            thread.setDaemon(true);
            return thread;
        });
    }

    @AfterEach
    void closeNodes() {
        List<String> violations = new ArrayList<>();
        RuntimeException failure = null;
        for (int i = nodes.size() - 1; i >= 0; i--) {
            ReplicationNode node = nodes.get(i);
            try {
                node.close();
            } catch (RuntimeException e) {
                failure = failure == null ? e : failure;
            }
            node.progress().violations().forEach(v -> violations.add(node.name() + ": " + v));
        }
        nodes.clear();
        scheduler.shutdownNow();
        if (failure != null) {
            throw failure;
        }
        assertThat(violations).as("acknowledgements of bytes no replica held").isEmpty();
        NettyLeakCheck.check();
    }

    /** Aborts the running test, naming the reason, when the strategy declared a deviation from {@code c}. */
    protected final void conformsTo(ContractCase c) {
        String reason = deviations().get(c);
        if (reason != null) {
            System.err.println("replication contract: " + provider().name() + " deviates from " + c + ": " + reason);
        }
        Assumptions.assumeTrue(reason == null, () -> provider().name() + " deviates from " + c + ": " + reason);
    }

    /**
     * A started node in the replica role following nobody, on a fresh port.
     *
     * @param epochs whether the node runs with epochs ({@code enableControllerMode=true}; the tests then use
     *     epochs from 1) or classic, static replication (epoch 0)
     */
    protected final ReplicationNode node(String name, long brokerId, boolean epochs) {
        ReplicationNode node = create(name, brokerId, epochs, FreePort.pick());
        node.start();
        return node;
    }

    /** A node not yet started, on {@code haPort}, with a log of its own. */
    protected final ReplicationNode create(String name, long brokerId, boolean epochs, int haPort) {
        Map<String, String> values = new HashMap<>(settings());
        values.put("haListenPort", String.valueOf(haPort));
        values.put("brokerIP1", "127.0.0.1");
        values.put("brokerIP2", "127.0.0.1");
        values.put("brokerId", String.valueOf(brokerId));
        values.put("enableControllerMode", String.valueOf(epochs));
        values.put("mappedFileSizeCommitLog", String.valueOf(SEGMENT));
        PluginContext plugin = new PluginContext(Clock.systemUTC(), scheduler, ByteBufAllocator.DEFAULT,
                storeRoot.resolve(name));
        MemoryReplicatedLog log = new MemoryReplicatedLog(SEGMENT, nodes.size() + 1);
        RecordingProgress progress = new RecordingProgress(() -> mostHeldBesides(log));
        ReplicationNode node = new ReplicationNode(name, brokerId, haPort, provider(), ConfigValues.of(values),
                plugin, log, progress);
        nodes.add(node);
        return node;
    }

    private long mostHeldBesides(MemoryReplicatedLog own) {
        long most = 0;
        for (ReplicationNode node : List.copyOf(nodes)) {
            if (node.log() != own) {
                most = Math.max(most, node.log().maxOffset());
            }
        }
        return most;
    }

    /** Writes {@code count} chunks of 100 to 4 099 bytes on {@code master}; returns the end. */
    protected static long writeMany(ReplicationNode master, int count) {
        long end = master.log().maxOffset();
        for (int i = 0; i < count; i++) {
            end = master.write(100 + (int) ((end * 7 + i * 31L) % 4_000));
        }
        return end;
    }

    /** Waits until {@code replica}'s log ends where the quiet {@code master}'s does, then compares them. */
    protected static void awaitCaughtUp(ReplicationNode master, ReplicationNode replica) {
        long end = master.log().maxOffset();
        Await.until(replica.name() + " to reach " + master.name() + "'s end " + end, WAIT,
                () -> replica.log().maxOffset() == end);
        assertSameLog(master, replica);
    }

    /**
     * {@code replica} holds the same bytes as {@code master} from its own first offset (a segment start) to
     * the common end, and the same epoch history.
     */
    protected static void assertSameLog(ReplicationNode master, ReplicationNode replica) {
        MemoryReplicatedLog m = master.log();
        MemoryReplicatedLog r = replica.log();
        assertThat(r.maxOffset()).as(replica.name() + "'s end").isEqualTo(m.maxOffset());
        long from = r.minOffset();
        assertThat(from % SEGMENT).as(replica.name() + " starts at a segment start").isZero();
        assertThat(from).as(replica.name() + "'s first offset").isGreaterThanOrEqualTo(m.minOffset());
        assertThat(r.bytes(from)).as(replica.name() + "'s bytes from " + from).isEqualTo(m.bytes(from));
        assertThat(r.epochs()).as(replica.name() + "'s epochs").isEqualTo(m.epochs());
    }

    /** Polls {@code condition} until it holds, at most {@link #WAIT}. */
    protected static void await(String what, BooleanSupplier condition) {
        Await.until(what, WAIT, condition);
    }
}
