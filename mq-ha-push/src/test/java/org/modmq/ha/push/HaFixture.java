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
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.modmq.api.config.ConfigValues;
import org.modmq.api.config.PluginConfig;
import org.modmq.api.message.BrokerMessage;
import org.modmq.api.message.MessageProperties;
import org.modmq.api.message.PutStatus;
import org.modmq.api.spi.PluginContext;
import org.modmq.api.spi.ProviderRegistry;
import org.modmq.api.spi.TransportTls;
import org.modmq.api.spi.flush.FlushPolicyProvider;
import org.modmq.api.spi.replication.ReplicatedLog;
import org.modmq.api.spi.replication.ReplicationContext;
import org.modmq.api.spi.replication.ReplicationStrategy;
import org.modmq.api.spi.replication.ReplicationStrategyProvider;
import org.modmq.api.spi.storage.StorageBackend;
import org.modmq.api.spi.storage.StorageBackendProvider;
import org.modmq.store.MessageStore;
import org.modmq.store.PutResult;
import org.modmq.store.StoreConfig;
import org.modmq.testkit.NettyLeakCheck;

/**
 * Real stores with the push strategy, messages and bounded waits for the push tests. Owns one scheduler.
 * A test class registers one per test ({@code @RegisterExtension final HaFixture fixture = new HaFixture();});
 * after each test it stops the scheduler and fails on a leaked buffer.
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

    /** Store and HA settings of a test node: 1 MiB segments, ephemeral HA port on 127.0.0.1, fast reconnects. */
    static Map<String, String> settings(String... keyValues) {
        Map<String, String> map = new HashMap<>(Map.of("storeBackend", "mmap",
                "mappedFileSizeCommitLog", String.valueOf(1 << 20), "mappedFileSizeConsumeQueue", "40960",
                "maxHashSlotNum", "256", "maxIndexNum", "2048", "flushDiskType", "ASYNC_FLUSH",
                "haListenPort", "0", "haBindAddress", "127.0.0.1", "haReconnectMinMillis", "20"));
        map.put("haReconnectMaxMillis", "200");
        for (int i = 0; i < keyValues.length; i += 2) {
            map.put(keyValues[i], keyValues[i + 1]);
        }
        return map;
    }

    PluginContext context(Path root) {
        return new PluginContext(Clock.systemUTC(), scheduler, ByteBufAllocator.DEFAULT, root);
    }

    /** As {@link #open(Path, String...)}, with TLS on the node's HA connections. */
    Node openWithTls(Path root, TransportTls tls, String... keyValues) {
        return open(new PluginContext(Clock.systemUTC(), scheduler, ByteBufAllocator.DEFAULT, root,
                java.util.Optional.of(tls)), keyValues);
    }

    /**
     * Opens a store under {@code root} with the push strategy (found by the service loader) and the
     * settings {@link #settings} makes of {@code keyValues}; the caller closes the node.
     */
    Node open(Path root, String... keyValues) {
        return open(context(root), keyValues);
    }

    private Node open(PluginContext context, String... keyValues) {
        Path root = context.storeRoot();
        ConfigValues values = ConfigValues.of(settings(keyValues));
        StorageBackendProvider mmap = ProviderRegistry.load(StorageBackendProvider.class).get("mmap");
        StorageBackend backend = mmap.create(PluginConfig.of(mmap.configKeys(), values), context);
        ReplicationStrategyProvider push = ProviderRegistry.load(ReplicationStrategyProvider.class).get("push");
        AtomicReference<PushReplicationStrategy> created = new AtomicReference<>();
        ReplicationStrategyProvider capturing = new ReplicationStrategyProvider() {
            @Override
            public String name() {
                return push.name();
            }

            @Override
            public java.util.List<org.modmq.api.config.ConfigKey> configKeys() {
                return push.configKeys();
            }

            @Override
            public ReplicationStrategy create(PluginConfig config, ReplicationContext replication) {
                PushReplicationStrategy strategy = (PushReplicationStrategy) push.create(config, replication);
                created.set(strategy);
                return strategy;
            }
        };
        try {
            FlushPolicyProvider flush = ProviderRegistry.load(FlushPolicyProvider.class).get("ASYNC_FLUSH");
            MessageStore store = MessageStore.open(StoreConfig.from(values, root), backend, flush, capturing, context,
                    () -> 0.1);
            return new Node(root, store, created.get(), backend);
        } catch (RuntimeException e) {
            backend.close();
            throw e;
        }
    }

    /** A store with its push strategy and backend; {@link #close()} closes the store, then the backend. */
    record Node(Path root, MessageStore store, PushReplicationStrategy strategy, StorageBackend backend)
            implements AutoCloseable {

        /** The HA address replicas dial. */
        String haAddress() {
            return "127.0.0.1:" + strategy.listenAddress().getPort();
        }

        InetSocketAddress haSocket() {
            return strategy.listenAddress();
        }

        ReplicatedLog log() {
            return store.replicatedLog();
        }

        @Override
        public void close() {
            try {
                store.close();
            } finally {
                backend.close();
            }
        }
    }

    static BrokerMessage message(String topic, int queueId, String body) {
        Map<String, String> props = new TreeMap<>();
        props.put(MessageProperties.TAGS, "TagA");
        props.put(MessageProperties.KEYS, "k" + body.hashCode());
        return new BrokerMessage(topic, queueId, 0, body.getBytes(StandardCharsets.UTF_8),
                MessageProperties.encode(props), 1_700_000_000_000L, BORN, STORE, 0, 0, 0L);
    }

    /** Puts one message, expects PUT_OK (after replication as the store's policy says) and returns its end offset. */
    static long put(MessageStore store, BrokerMessage message) throws Exception {
        PutResult result = store.putMessage(message).get(30, TimeUnit.SECONDS);
        assertThat(result.status()).as(result.detail()).isEqualTo(PutStatus.PUT_OK);
        return result.endOffset();
    }

    /** Puts {@code count} messages of about {@code bodySize} bytes over 4 queues of 2 topics; returns the end. */
    static long burst(MessageStore store, int count, int bodySize, String tag) throws Exception {
        long end = 0;
        for (int i = 0; i < count; i++) {
            String body = tag + "-" + i + "-" + "x".repeat(bodySize + (i % 97));
            end = put(store, message("Topic" + (i % 2), i % 4, body));
        }
        return end;
    }

    /** Polls {@code condition} every 5 ms until it holds or {@code timeout} passes (then fails naming {@code what}). */
    static void await(BooleanSupplier condition, Duration timeout, String what) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out after " + timeout.toMillis() + " ms waiting for " + what);
            }
            Thread.sleep(5);
        }
    }

    /** Waits until {@code replica}'s log ends where {@code master}'s does. */
    static void awaitCaughtUp(Node master, Node replica) throws InterruptedException {
        await(() -> replica.store().getCommitLogMaxOffset() == master.store().getCommitLogMaxOffset(), WAIT,
                "replica to reach " + master.store().getCommitLogMaxOffset() + " (at "
                        + replica.store().getCommitLogMaxOffset() + ")");
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

    /**
     * Both logs hold the same bytes from the same min offset, in the same segment files, with the same
     * epoch history, and the replica dispatched the same ConsumeQueues (compared file by file).
     */
    static void assertSameLogsAndQueues(Node master, Node replica) throws Exception {
        MessageStore masterStore = master.store();
        MessageStore replicaStore = replica.store();
        // The replica's commit log end is published before its own dispatcher has built the queues.
        await(() -> queuesCaughtUp(masterStore, replicaStore), WAIT, "replica to dispatch its ConsumeQueues");
        assertThat(replicaStore.getCommitLogMinOffset()).isEqualTo(masterStore.getCommitLogMinOffset());
        assertThat(bytesOf(replica.log())).isEqualTo(bytesOf(master.log()));
        assertThat(replicaStore.epochs()).isEqualTo(masterStore.epochs());
        Map<String, byte[]> masterLog = filesUnder(master.root().resolve("commitlog"));
        Map<String, byte[]> replicaLog = filesUnder(replica.root().resolve("commitlog"));
        assertThat(List.copyOf(replicaLog.keySet())).isEqualTo(List.copyOf(masterLog.keySet())).isNotEmpty();
        masterLog.forEach((name, bytes) -> assertThat(replicaLog.get(name)).as("commitlog/" + name).isEqualTo(bytes));
        assertThat(replicaStore.topics()).isEqualTo(masterStore.topics());
        for (String topic : masterStore.topics()) {
            assertThat(replicaStore.queueIds(topic)).isEqualTo(masterStore.queueIds(topic));
            for (int queueId : masterStore.queueIds(topic)) {
                assertThat(replicaStore.getMaxOffsetInQueue(topic, queueId))
                        .isEqualTo(masterStore.getMaxOffsetInQueue(topic, queueId));
            }
        }
        Map<String, byte[]> masterQueues = filesUnder(master.root().resolve("consumequeue"));
        Map<String, byte[]> replicaQueues = filesUnder(replica.root().resolve("consumequeue"));
        assertThat(List.copyOf(replicaQueues.keySet())).isEqualTo(List.copyOf(masterQueues.keySet())).isNotEmpty();
        masterQueues.forEach((name, bytes) ->
                assertThat(replicaQueues.get(name)).as("consumequeue/" + name).isEqualTo(bytes));
    }

    private static boolean queuesCaughtUp(MessageStore masterStore, MessageStore replicaStore) {
        for (String topic : masterStore.topics()) {
            for (int queueId : masterStore.queueIds(topic)) {
                if (replicaStore.getMaxOffsetInQueue(topic, queueId) != masterStore.getMaxOffsetInQueue(topic, queueId)) {
                    return false;
                }
            }
        }
        return true;
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
