package org.modmq.store;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import io.netty.util.ResourceLeakDetector;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.modmq.api.config.ConfigValues;
import org.modmq.api.config.PluginConfig;
import org.modmq.api.message.PutStatus;
import org.modmq.api.message.StoredMessage;
import org.modmq.api.spi.PluginContext;
import org.modmq.api.spi.ProviderRegistry;
import org.modmq.api.spi.flush.FlushPolicyProvider;
import org.modmq.api.spi.storage.StorageBackend;
import org.modmq.api.spi.storage.StorageBackendProvider;
import org.modmq.store.faulty.control.FaultControl;
import org.modmq.store.faulty.control.FaultyStorage;
import org.modmq.store.format.MessageDecoder;
import org.modmq.testkit.NettyLeakCheck;

/**
 * Simulated power losses ({@code storeBackend=faulty} over mmap and direct): each cycle opens (and so
 * recovers) the store, lets four threads put a bounded burst, cuts the power after a random number of
 * acknowledgements while other puts are in flight, and checks at the next open what is there.
 *
 * <ul>
 *   <li>SYNC_FLUSH: every acknowledged message of every earlier cycle is there, intact (body CRC), at the
 *       offsets its acknowledgement named; every queue is dense and every stored record decodes.</li>
 *   <li>ASYNC_FLUSH: what is lost is a tail: per queue, acknowledged messages below the recovered end
 *       are there and intact, the rest is gone; the loss is measured and printed (see README).</li>
 * </ul>
 *
 * {@code -Dmodmq.powerLoss.crashes=N} runs N cycles instead of 20 (each case),
 * {@code -Dmodmq.powerLoss.repeat=R} runs each case R times, and {@code -Dmodmq.powerLoss.seed=S}
 * repeats a seed (printed at the start).
 */
@Timeout(300)
@ExtendWith(NettyLeakCheck.class)
class PowerLossTest {

    private static final String TOPIC = "PowerLoss";
    private static final int THREADS = 4;
    private static final int PER_THREAD = 10;
    private static final int QUEUES = 2;
    private static final int SAMPLE = 20;
    private static final int REPEAT = Integer.getInteger("modmq.powerLoss.repeat", 1);

    @TempDir
    Path root;

    private final ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor();
    private final ExecutorService senders = Executors.newFixedThreadPool(THREADS);
    private final long seed = Long.getLong("modmq.powerLoss.seed", System.nanoTime());
    private final Random random = new Random(seed);

    {
        System.out.println("[power-loss] seed " + seed + " (-Dmodmq.powerLoss.seed to repeat)");
    }

    private static ResourceLeakDetector.Level leakLevel;

    /**
     * Paranoid leak detection records a stack trace at every buffer access; recovery and dispatch in 140
     * store opens made that minutes. SIMPLE still reports leaks (sampled); StoreFaultsTest covers the
     * fault paths under paranoid.
     */
    @BeforeAll
    static void sampleLeaks() {
        leakLevel = ResourceLeakDetector.getLevel();
        ResourceLeakDetector.setLevel(ResourceLeakDetector.Level.SIMPLE);
    }

    @AfterAll
    static void restoreLeakLevel() {
        ResourceLeakDetector.setLevel(leakLevel);
    }

    private record Ack(int queueId, long queueOffset, long commitLogOffset, int size, int cycle) {
    }

    @AfterEach
    void stop() {
        senders.shutdownNow();
        scheduler.shutdownNow();
        FaultyStorage.forget(root);
    }

    private ConfigValues config(String delegate, String flush) {
        return ConfigValues.of(Map.of("storeBackend", FaultyStorage.NAME, FaultyStorage.DELEGATE_KEY, delegate,
                "flushDiskType", flush, "storePathRootDir", root.toString(), "mappedFileSizeCommitLog", "16384",
                "mappedFileSizeConsumeQueue", "4000", "maxHashSlotNum", "64", "maxIndexNum", "512",
                "flushIntervalConsumeQueue", "50"));
    }

    /** Each backend {@code -Dmodmq.powerLoss.repeat} times (default 1): each time a new store root and seed. */
    static Stream<String> syncBackends() {
        return IntStream.range(0, REPEAT).boxed().flatMap(i -> Stream.of("mmap", "direct"));
    }

    static Stream<String> asyncBackends() {
        return IntStream.range(0, REPEAT).mapToObj(i -> "mmap");
    }

    @ParameterizedTest
    @MethodSource("syncBackends")
    void syncFlushLosesNoAcknowledgedMessage(String delegate) throws Exception {
        int crashes = Integer.getInteger("modmq.powerLoss.crashes", 20);
        Map<String, Ack> acked = new ConcurrentHashMap<>();
        Map<Integer, Long> checked = new HashMap<>();
        for (int cycle = 0; cycle < crashes; cycle++) {
            try (Opened opened = open(delegate, "SYNC_FLUSH")) {
                assertThat(opened.store.recoveryReport().abnormal()).as("cycle %d opens after a crash", cycle)
                        .isEqualTo(cycle > 0);
                verifyQueues(opened.store, checked);
                // The last burst in full; earlier ones were checked after their own crash, so a sample (and the
                // queue ends) show that no later recovery took them back.
                List<Map.Entry<String, Ack>> earlier = new ArrayList<>();
                for (Map.Entry<String, Ack> ack : acked.entrySet()) {
                    if (ack.getValue().cycle() == cycle - 1) {
                        assertPresent(opened.store, ack.getKey(), ack.getValue());
                    } else {
                        earlier.add(ack);
                        assertThat(opened.store.getMaxOffsetInQueue(TOPIC, ack.getValue().queueId()))
                                .isGreaterThan(ack.getValue().queueOffset());
                    }
                }
                for (int i = 0; i < Math.min(SAMPLE, earlier.size()); i++) {
                    Map.Entry<String, Ack> ack = earlier.get(random.nextInt(earlier.size()));
                    assertPresent(opened.store, ack.getKey(), ack.getValue());
                }
                burstAndCrash(opened, cycle, acked);
            }
        }
        assertThat(acked).as("acknowledged over all cycles").hasSizeGreaterThan(crashes);
    }

    @ParameterizedTest
    @MethodSource("asyncBackends")
    void asyncFlushLosesOnlyATail(String delegate) throws Exception {
        int crashes = Integer.getInteger("modmq.powerLoss.crashes", 20);
        Map<String, Ack> acked = new ConcurrentHashMap<>();
        long totalAcked = 0;
        long totalLost = 0;
        int maxLost = 0;
        long maxLostBytes = 0;
        Map<Integer, Long> checked = new HashMap<>();
        for (int cycle = 0; cycle < crashes; cycle++) {
            try (Opened opened = open(delegate, "ASYNC_FLUSH")) {
                verifyQueues(opened.store, checked);
                int lost = 0;
                long lostBytes = 0;
                for (Map.Entry<String, Ack> ack : List.copyOf(acked.entrySet())) {
                    Ack a = ack.getValue();
                    if (a.queueOffset() < opened.store.getMaxOffsetInQueue(TOPIC, a.queueId())) {
                        assertPresent(opened.store, ack.getKey(), a);
                    } else {
                        assertThat(a.cycle()).as("only the last cycle's messages can be lost").isEqualTo(cycle - 1);
                        acked.remove(ack.getKey());
                        lost++;
                        lostBytes += a.size();
                    }
                }
                totalLost += lost;
                maxLost = Math.max(maxLost, lost);
                maxLostBytes = Math.max(maxLostBytes, lostBytes);
                totalAcked += burstAndCrash(opened, cycle, acked);
            }
        }
        System.out.printf("ASYNC_FLUSH power loss (%s, flushIntervalCommitLog 500 ms, wakeFlushWhenPutMessage as the backend "
                + "defaults it, flushCommitLogLeastPages 4): "
                + "%d crashes, %d acknowledged, %d lost (at most %d messages, %d stored bytes in one crash)%n", delegate,
                crashes, totalAcked, totalLost, maxLost, maxLostBytes);
    }

    /**
     * A store on a faulty backend and the control that cuts its power. The store sees an empty disk: with
     * the machine's real usage, a shared disk above diskMaxUsedSpaceRatio made every open delete the oldest
     * 16 KiB CommitLog segment, acknowledged messages with it.
     */
    private final class Opened implements AutoCloseable {
        final FaultControl control = FaultyStorage.control(root);
        final StorageBackend backend;
        final MessageStore store;

        Opened(ConfigValues config) {
            // The simulation says what is durable; real forces made 100 cycles take 90 s on a shared disk.
            control.simulateForces(true);
            PluginContext context = new PluginContext(Clock.systemUTC(), scheduler, ByteBufAllocator.DEFAULT, root);
            StoreConfig storeConfig = StoreConfig.from(config, root);
            StorageBackendProvider provider = ProviderRegistry.load(StorageBackendProvider.class)
                    .get(storeConfig.storeBackend());
            this.backend = provider.create(PluginConfig.of(provider.configKeys(), config), context);
            try {
                this.store = MessageStore.open(storeConfig, backend,
                        ProviderRegistry.load(FlushPolicyProvider.class).get(storeConfig.flushDiskType()), context, () -> 0);
            } catch (RuntimeException e) {
                backend.close();
                throw e;
            }
        }

        /** Power loss (idempotent), then the store's close, which fails: nothing more reaches the files. */
        @Override
        public void close() {
            control.powerLoss();
            try {
                store.close();
            } catch (RuntimeException expected) {
                // The crashed backend refuses the final force; the abort file stays.
            } finally {
                backend.close();
            }
        }
    }

    private Opened open(String delegate, String flush) {
        return new Opened(config(delegate, flush));
    }

    /** Puts one burst from {@link #THREADS} threads and cuts the power after a random number of acks. */
    private int burstAndCrash(Opened opened, int cycle, Map<String, Ack> acked) throws Exception {
        int crashAfter = random.nextInt(THREADS * PER_THREAD + 1);
        AtomicInteger acks = new AtomicInteger();
        AtomicBoolean crashed = new AtomicBoolean();
        if (crashAfter == 0 && crashed.compareAndSet(false, true)) {
            opened.control.powerLoss();
        }
        List<Future<?>> running = new ArrayList<>();
        for (int t = 0; t < THREADS; t++) {
            int thread = t;
            running.add(senders.submit(() -> {
                for (int i = 0; i < PER_THREAD; i++) {
                    String body = body(cycle, thread, i);
                    PutResult result = opened.store.putMessage(TestMessages.message(TOPIC, thread % QUEUES, body))
                            .get(30, TimeUnit.SECONDS);
                    if (result.status() != PutStatus.PUT_OK) {
                        continue;
                    }
                    acked.put(body, new Ack(thread % QUEUES, result.queueOffset(), result.commitLogOffset(), result.size(),
                            cycle));
                    if (acks.incrementAndGet() == crashAfter && crashed.compareAndSet(false, true)) {
                        opened.control.powerLoss();
                    }
                }
                return null;
            }));
        }
        for (Future<?> sender : running) {
            sender.get(60, TimeUnit.SECONDS);
        }
        return acks.get();
    }

    private String body(int cycle, int thread, int i) {
        StringBuilder body = new StringBuilder("c" + cycle + "-t" + thread + "-" + i + "-");
        int pad = 20 + random.nextInt(300);
        for (int k = 0; k < pad; k++) {
            body.append((char) ('a' + (k + cycle) % 26));
        }
        return body.toString();
    }

    private static void assertPresent(MessageStore store, String body, Ack ack) {
        try (GetMessageResult read = store.getMessages(TOPIC, ack.queueId(), ack.queueOffset(), 1, t -> true, 1 << 20)) {
            assertThat(read.status()).as("acknowledged %s at queue %d offset %d (queue [%d, %d))", body.substring(0, 12),
                    ack.queueId(), ack.queueOffset(), read.minOffset(), read.maxOffset()).isEqualTo(GetMessageStatus.FOUND);
            ByteBuf record = read.messages().get(0);
            StoredMessage stored = MessageDecoder.decode(record, record.readerIndex(), true);
            assertThat(stored.commitLogOffset()).isEqualTo(ack.commitLogOffset());
            assertThat(new String(stored.message().body(), StandardCharsets.UTF_8)).isEqualTo(body);
        }
    }

    /**
     * Every queue is dense and each of its records decodes with a good body CRC, from where the last check
     * got to ({@code checked}, per queue; updated) or the queue's end if it is lower now.
     */
    private static void verifyQueues(MessageStore store, Map<Integer, Long> checked) {
        Map<Long, Integer> seen = new HashMap<>();
        for (int queueId = 0; queueId < QUEUES; queueId++) {
            long max = store.getMaxOffsetInQueue(TOPIC, queueId);
            long from = Math.max(store.getMinOffsetInQueue(TOPIC, queueId), Math.min(max, checked.getOrDefault(queueId, 0L)));
            checked.put(queueId, max);
            for (long offset = from; offset < max; offset++) {
                try (GetMessageResult read = store.getMessages(TOPIC, queueId, offset, 1, t -> true, 1 << 20)) {
                    assertThat(read.status()).as("queue %d offset %d below max %d", queueId, offset, max)
                            .isEqualTo(GetMessageStatus.FOUND);
                    ByteBuf record = read.messages().get(0);
                    StoredMessage stored = MessageDecoder.decode(record, record.readerIndex(), true);
                    assertThat(stored.queueOffset()).isEqualTo(offset);
                    assertThat(seen.put(stored.commitLogOffset(), queueId)).as("one entry per record").isNull();
                }
            }
        }
    }
}
