package org.modmq.broker.schedule;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBufAllocator;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.modmq.api.config.ConfigValues;
import org.modmq.api.message.BrokerMessage;
import org.modmq.api.message.DelayLevels;
import org.modmq.api.message.MessageProperties;
import org.modmq.api.message.StoredMessage;
import org.modmq.api.spi.PluginContext;
import org.modmq.broker.config.BrokerConfig;
import org.modmq.broker.metadata.DelayOffsetTable;
import org.modmq.broker.metadata.TopicConfigTable;
import org.modmq.broker.testing.Await;
import org.modmq.broker.testing.TestConfigs;
import org.modmq.store.MessageStore;
import org.modmq.testkit.ManualClock;

/** The delay levels' delivery on a real store, stepped by hand with a manual clock. */
@Timeout(60)
class DelayDeliveryAgentTest {

    private static final String LEVELS = "1s 5s 10s";
    private static final InetSocketAddress HOST = new InetSocketAddress("127.0.0.1", 10911);
    private static final Duration ACK = Duration.ofSeconds(10);

    @TempDir
    Path dir;

    private final ManualClock clock = new ManualClock(Instant.parse("2026-01-01T10:00:00Z"));
    private final ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor();
    private final DelayRedirect redirect = new DelayRedirect(DelayLevels.parse(LEVELS));
    private BrokerConfig config;
    private MessageStore store;
    private DelayOffsetTable offsets;
    private TopicConfigTable topics;
    private DelayService service;

    @BeforeEach
    void open() {
        config = TestConfigs.broker(dir, "messageDelayLevel", LEVELS);
        reopen();
    }

    private void reopen() {
        store = MessageStore.open(ConfigValues.of(Map.of("storePathRootDir", dir.toString(),
                "mappedFileSizeCommitLog", "1048576", "mappedFileSizeConsumeQueue", "20000",
                "messageDelayLevel", LEVELS)), new PluginContext(clock, scheduler, ByteBufAllocator.DEFAULT, dir));
        offsets = new DelayOffsetTable(config.store().configDir(), clock);
        topics = new TopicConfigTable(config.store().configDir(), clock, config.identity(), config.topics());
        service = new DelayService(config.store().delayLevels(), store, offsets, topics, clock);
    }

    @AfterEach
    void close() {
        if (service != null) {
            service.close();
        }
        if (store != null) {
            store.close();
        }
        scheduler.shutdownNow();
    }

    /** Stores {@code body} for TopicA/{@code queueId} with {@code level}, as a send does. */
    private void sendDelayed(int queueId, int level, String body) {
        Map<String, String> properties = new LinkedHashMap<>();
        properties.put(MessageProperties.TAGS, "TagA");
        properties.put(MessageProperties.UNIQ_KEY, "U-" + body);
        properties.put(MessageProperties.DELAY, Integer.toString(level));
        DelayRedirect.Target target = redirect.redirect("TopicA", queueId, properties, 0);
        assertThat(target.topic()).isEqualTo(DelayLevels.SCHEDULE_TOPIC);
        storeRaw(target.topic(), target.queueId(), properties, body);
    }

    private void storeRaw(String topic, int queueId, Map<String, String> properties, String body) {
        BrokerMessage message = new BrokerMessage(topic, queueId, 7, body.getBytes(StandardCharsets.UTF_8),
                MessageProperties.encode(properties), 1_234L, HOST, HOST, 0, 2, 0);
        assertThat(store.append(List.of(message)).stored()).isTrue();
    }

    private List<StoredMessage> delivered(int queueId) {
        List<StoredMessage> out = new ArrayList<>();
        for (long offset = 0; offset < store.getMaxOffsetInQueue("TopicA", queueId); offset++) {
            long at = store.queueEntry("TopicA", queueId, offset).orElseThrow().commitLogOffset();
            out.add(store.lookMessageByOffset(at).orElseThrow());
        }
        return out;
    }

    private List<String> bodies(int queueId) {
        return delivered(queueId).stream().map(m -> new String(m.message().body(), StandardCharsets.UTF_8)).toList();
    }

    private void awaitTable(int level, long offset) {
        Await.until("delay offset of level " + level + " at " + offset, ACK,
                () -> offsets.get(level).orElse(-1) == offset);
    }

    @Test
    void deliversWhenDueWithThePropertiesRestoredAndNotBefore() {
        assertThat(topics.get(DelayLevels.SCHEDULE_TOPIC).orElseThrow().queueCount()).as("one queue per level")
                .isEqualTo(3);
        long storedAt = clock.millis();
        sendDelayed(1, 2, "m0");
        assertThat(service.doWork()).isZero();
        assertThat(service.agents().get(1).nextWorkMillis()).as("due 5 s after the store").isEqualTo(storedAt + 5_000);
        assertThat(service.agents().get(0).nextWorkMillis()).as("nothing queued").isEqualTo(Long.MAX_VALUE);
        clock.advance(Duration.ofMillis(4_999));
        assertThat(service.doWork()).as("4.999 s after the store").isZero();
        assertThat(bodies(1)).isEmpty();

        clock.advance(Duration.ofMillis(1));
        assertThat(service.doWork()).isEqualTo(1);
        StoredMessage got = delivered(1).get(0);
        assertThat(new String(got.message().body(), StandardCharsets.UTF_8)).isEqualTo("m0");
        assertThat(got.message().topic()).isEqualTo("TopicA");
        assertThat(got.message().flag()).isEqualTo(7);
        assertThat(got.message().reconsumeTimes()).isEqualTo(2);
        assertThat(got.message().bornTimestamp()).isEqualTo(1_234L);
        assertThat(got.message().propertyMap()).doesNotContainKey(MessageProperties.DELAY)
                .containsEntry(MessageProperties.TAGS, "TagA").containsEntry(MessageProperties.UNIQ_KEY, "U-m0")
                .containsEntry(MessageProperties.REAL_TOPIC, "TopicA").containsEntry(MessageProperties.REAL_QID, "1")
                .containsEntry(MessageProperties.WAIT, "false");
        awaitTable(2, 1);
        assertThat(service.doWork()).as("delivered once").isZero();
        assertThat(offsets.get(1)).as("other levels untouched").isEmpty();
    }

    @Test
    void levelsAreIndependentAndInOrderOfTheirOwnQueue() {
        sendDelayed(0, 3, "slow");
        sendDelayed(0, 1, "fast");
        clock.advance(Duration.ofSeconds(1));
        assertThat(service.doWork()).isEqualTo(1);
        assertThat(bodies(0)).containsExactly("fast");
        clock.advance(Duration.ofSeconds(9));
        assertThat(service.doWork()).isEqualTo(1);
        assertThat(bodies(0)).containsExactly("fast", "slow");
    }

    @Test
    void resumesAfterARestartFromThePersistedOffsetRedeliveringOnlyTheUnpersistedTail() {
        for (int i = 0; i < 3; i++) {
            sendDelayed(0, 1, "a" + i);
        }
        clock.advance(Duration.ofSeconds(1));
        assertThat(service.doWork()).isEqualTo(3);
        awaitTable(1, 3);
        offsets.persist();
        sendDelayed(0, 1, "b0");
        sendDelayed(0, 1, "b1");
        sendDelayed(0, 1, "b2");
        clock.advance(Duration.ofMillis(500));
        sendDelayed(0, 2, "pending");
        clock.advance(Duration.ofMillis(500));
        assertThat(service.doWork()).isEqualTo(3);
        awaitTable(1, 6);
        // A crash: the table file still says 3 (the 5 s persist did not run), the CommitLog holds everything.
        store.close();
        store = null;
        reopen();
        assertThat(offsets.get(1)).hasValue(3);
        assertThat(service.doWork()).isEqualTo(3);
        assertThat(bodies(0)).as("the tail after the persisted offset comes twice, as in RocketMQ")
                .containsExactly("a0", "a1", "a2", "b0", "b1", "b2", "b0", "b1", "b2");
        clock.advance(Duration.ofSeconds(5));
        assertThat(service.doWork()).isEqualTo(1);
        assertThat(bodies(0)).endsWith("pending");
        awaitTable(1, 6);
        awaitTable(2, 1);

        service.close();
        store.close();
        store = null;
        reopen();
        clock.advance(Duration.ofHours(1));
        assertThat(service.doWork()).as("after a clean close nothing is delivered twice").isZero();
    }

    @Test
    void deliversOnlyWhileMasterAndANewMasterContinuesFromTheReplicatedOffsets() {
        sendDelayed(0, 1, "m0");
        sendDelayed(0, 1, "m1");
        store.becomeReplica(0, null, 1);
        assertThat(service.agents()).noneMatch(DelayDeliveryAgent::active);
        clock.advance(Duration.ofSeconds(2));
        assertThat(service.doWork()).isZero();
        assertThat(bodies(0)).isEmpty();
        // The slave sync copied the old master's offset: m0 was delivered there.
        offsets.update(1, 1);

        store.becomeMaster(0, 0);
        assertThat(service.agents()).allMatch(DelayDeliveryAgent::active);
        assertThat(service.doWork()).isEqualTo(1);
        assertThat(bodies(0)).containsExactly("m1");
        awaitTable(1, 2);
    }

    @Test
    void entriesThatCannotBeDeliveredAreSkippedWithALog() {
        Map<String, String> noRealTopic = new LinkedHashMap<>(Map.of(MessageProperties.DELAY, "1"));
        storeRaw(DelayLevels.SCHEDULE_TOPIC, 0, noRealTopic, "no-real-topic");
        Map<String, String> badQueue = new LinkedHashMap<>(Map.of(MessageProperties.DELAY, "1",
                MessageProperties.REAL_TOPIC, "TopicA", MessageProperties.REAL_QID, "x"));
        storeRaw(DelayLevels.SCHEDULE_TOPIC, 0, badQueue, "bad-queue");
        Map<String, String> halfTopic = new LinkedHashMap<>(Map.of(MessageProperties.DELAY, "1",
                MessageProperties.REAL_TOPIC, "RMQ_SYS_TRANS_HALF_TOPIC", MessageProperties.REAL_QID, "0"));
        storeRaw(DelayLevels.SCHEDULE_TOPIC, 0, halfTopic, "half");
        Map<String, String> badLevel = new LinkedHashMap<>(Map.of(MessageProperties.DELAY, "soon",
                MessageProperties.REAL_TOPIC, "TopicA", MessageProperties.REAL_QID, "0"));
        storeRaw(DelayLevels.SCHEDULE_TOPIC, 0, badLevel, "bad-level");
        sendDelayed(0, 1, "good");
        clock.advance(Duration.ofSeconds(1));

        assertThat(service.doWork()).isEqualTo(5);
        assertThat(bodies(0)).as("a DELAY that is no level is delivered at once").containsExactly("bad-level", "good");
        assertThat(store.getMaxOffsetInQueue("RMQ_SYS_TRANS_HALF_TOPIC", 0)).isZero();
        awaitTable(1, 5);
    }

    @Test
    void anOffsetOutsideTheQueueIsBroughtBackIntoIt() {
        sendDelayed(0, 1, "m0");
        offsets.update(1, 40);
        store.becomeReplica(0, null, 1);
        store.becomeMaster(0, 0);
        clock.advance(Duration.ofSeconds(1));
        assertThat(service.doWork()).isZero();
        assertThat(offsets.get(1)).as("corrected to the queue's end, as RocketMQ does").hasValue(1);
        sendDelayed(0, 1, "m1");
        clock.advance(Duration.ofSeconds(1));
        assertThat(service.doWork()).isEqualTo(1);
        assertThat(bodies(0)).containsExactly("m1");
    }
}
