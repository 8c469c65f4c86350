package org.modmq.ha.push;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.modmq.api.config.BrokerRole;
import org.modmq.api.config.ConfigValues;
import org.modmq.api.message.BrokerMessage;
import org.modmq.api.message.MessageProperties;
import org.modmq.api.message.PutStatus;
import org.modmq.api.spi.PluginContext;
import org.modmq.api.spi.ProviderRegistry;
import org.modmq.api.spi.replication.ReplicatedLog;
import org.modmq.api.spi.replication.ReplicationContext;
import org.modmq.api.spi.replication.ReplicationStrategyProvider;
import org.modmq.store.MessageStore;
import org.modmq.store.PutResult;
import org.modmq.testkit.NettyLeakCheck;

/**
 * Stores, strategies, messages and bounded waits for the push tests. Owns one scheduler. A test class
 * registers one per test ({@code @RegisterExtension final HaFixture fixture = new HaFixture();}); after
 * each test it stops the scheduler and fails on a leaked buffer.
 */
final class HaFixture implements AutoCloseable, AfterEachCallback {

    /** How long the tests wait for replication to happen. */
    static final Duration WAIT = Duration.ofSeconds(20);

    static final InetSocketAddress BORN = new InetSocketAddress("127.0.0.1", 51192);
    static final InetSocketAddress STORE = new InetSocketAddress("127.0.0.1", 20911);

    static {
        NettyLeakCheck.install();
    }

    final ScheduledExecutorService scheduler = Executors.newScheduledThreadPool(2);

    static ConfigValues storeConfig() {
        return ConfigValues.of(Map.of("storeBackend", "mmap", "mappedFileSizeCommitLog", String.valueOf(1 << 20),
                "mappedFileSizeConsumeQueue", "40960", "maxHashSlotNum", "256", "maxIndexNum", "2048",
                "flushDiskType", "ASYNC_FLUSH"));
    }

    static ConfigValues haConfig(String... keyValues) {
        Map<String, String> map = new HashMap<>(Map.of("haListenPort", "0", "haBindAddress", "127.0.0.1"));
        for (int i = 0; i < keyValues.length; i += 2) {
            map.put(keyValues[i], keyValues[i + 1]);
        }
        return ConfigValues.of(map);
    }

    PluginContext context(Path root) {
        return new PluginContext(Clock.systemUTC(), scheduler, ByteBufAllocator.DEFAULT, root);
    }

    MessageStore openStore(Path root) {
        return MessageStore.open(storeConfig(), context(root));
    }

    PushReplicationStrategy strategy(ConfigValues ha, BrokerRole role, Path root, MessageStore store) {
        ReplicationStrategyProvider provider = ProviderRegistry.load(ReplicationStrategyProvider.class).get("push");
        return (PushReplicationStrategy) provider.create(ha, new ReplicationContext(context(root), role,
                store.replicatedLog()));
    }

    /**
     * A master and a replica, each a store and a push strategy under {@code root/master} and
     * {@code root/replica}; neither strategy is started. The replica's strategy takes {@code replicaHa},
     * the master's the defaults.
     */
    Pair pair(Path root, BrokerRole masterRole, ConfigValues replicaHa) {
        Path masterRoot = root.resolve("master");
        Path replicaRoot = root.resolve("replica");
        List<AutoCloseable> opened = new ArrayList<>();
        try {
            MessageStore masterStore = opened(opened, openStore(masterRoot));
            MessageStore replicaStore = opened(opened, openStore(replicaRoot));
            PushReplicationStrategy master = opened(opened, strategy(haConfig(), masterRole, masterRoot, masterStore));
            PushReplicationStrategy replica = strategy(replicaHa, BrokerRole.SLAVE, replicaRoot, replicaStore);
            return new Pair(masterRoot, masterStore, master, replicaRoot, replicaStore, replica);
        } catch (RuntimeException e) {
            closeInReverse(opened, e);
            throw e;
        }
    }

    private static <T extends AutoCloseable> T opened(List<AutoCloseable> opened, T resource) {
        opened.add(resource);
        return resource;
    }

    /** Closes every resource, last first; returns {@code failure}, or the first failure, with later ones suppressed. */
    private static Exception closeInReverse(List<AutoCloseable> resources, Exception failure) {
        Exception first = failure;
        for (int i = resources.size() - 1; i >= 0; i--) {
            try {
                resources.get(i).close();
            } catch (Exception e) {
                if (first == null) {
                    first = e;
                } else {
                    first.addSuppressed(e);
                }
            }
        }
        return first;
    }

    /**
     * What {@link #pair} opened; {@link #close()} closes the replica's strategy, the master's, then the
     * replica's store and the master's, as try-with-resources over them in opening order would.
     */
    record Pair(Path masterRoot, MessageStore masterStore, PushReplicationStrategy master,
                Path replicaRoot, MessageStore replicaStore, PushReplicationStrategy replica)
            implements AutoCloseable {

        @Override
        public void close() throws Exception {
            Exception failure = closeInReverse(List.of(masterStore, replicaStore, master, replica), null);
            if (failure != null) {
                throw failure;
            }
        }
    }

    static String addressOf(PushReplicationStrategy master) {
        return "127.0.0.1:" + master.listenAddress().getPort();
    }

    static BrokerMessage message(String topic, int queueId, String body) {
        Map<String, String> props = new TreeMap<>();
        props.put(MessageProperties.TAGS, "TagA");
        props.put(MessageProperties.KEYS, "k" + body.hashCode());
        return new BrokerMessage(topic, queueId, 0, body.getBytes(StandardCharsets.UTF_8),
                MessageProperties.encode(props), 1_700_000_000_000L, BORN, STORE, 0, 0, 0L);
    }

    /** Puts one message and returns the end offset of what was written. */
    static long put(MessageStore store, BrokerMessage message) throws Exception {
        PutResult result = store.putMessage(message).get(10, TimeUnit.SECONDS);
        assertThat(result.status()).isEqualTo(PutStatus.PUT_OK);
        return result.commitLogOffset() + result.size();
    }

    /** Puts {@code count} messages of about {@code bodySize} bytes over 4 queues of 2 topics, telling {@code master} after each. */
    static long burst(MessageStore store, PushReplicationStrategy master, int count, int bodySize, String tag)
            throws Exception {
        long end = 0;
        for (int i = 0; i < count; i++) {
            String body = tag + "-" + i + "-" + "x".repeat(bodySize + (i % 97));
            end = put(store, message("Topic" + (i % 2), i % 4, body));
            if (master != null) {
                master.appended(end);
            }
        }
        return end;
    }

    static void await(BooleanSupplier condition, Duration timeout, String what) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out after " + timeout.toMillis() + " ms waiting for " + what);
            }
            Thread.sleep(5);
        }
    }

    /** Every byte of {@code log} from its min to its max offset. */
    static byte[] bytesOf(ReplicatedLog log) {
        long start = log.minOffset();
        long end = log.maxOffset();
        byte[] out = new byte[Math.toIntExact(end - start)];
        long at = start;
        while (at < end) {
            ByteBuf view = log.read(at, (int) (end - at));
            try {
                int n = view.readableBytes();
                view.getBytes(view.readerIndex(), out, (int) (at - start), n);
                at += n;
            } finally {
                view.release();
            }
        }
        return out;
    }

    /** Relative path → file bytes of every regular file under {@code dir}. */
    static Map<String, byte[]> filesUnder(Path dir) throws IOException {
        Map<String, byte[]> files = new TreeMap<>();
        try (Stream<Path> walk = Files.walk(dir)) {
            for (Path file : walk.filter(Files::isRegularFile).toList()) {
                files.put(dir.relativize(file).toString(), Files.readAllBytes(file));
            }
        }
        return files;
    }

    static List<String> names(Map<String, byte[]> files) {
        return List.copyOf(files.keySet());
    }

    /** Stops the scheduler, then fails when Netty reported a leaked buffer. */
    @Override
    public void close() {
        scheduler.shutdownNow();
        NettyLeakCheck.check();
    }

    @Override
    public void afterEach(ExtensionContext context) {
        close();
    }
}
