package org.modmq.store;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBufAllocator;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.modmq.api.config.ConfigValues;
import org.modmq.api.message.BrokerMessage;
import org.modmq.api.message.DelayLevels;
import org.modmq.api.message.MessageProperties;
import org.modmq.api.spi.PluginContext;
import org.modmq.store.flush.SyncFlushPolicyProvider;
import org.modmq.testkit.ManualClock;

/** SCHEDULE_TOPIC_XXXX entries carry their delivery time as tag code, as RocketMQ's dispatch gives them. */
@Timeout(60)
class ScheduleTagsCodeTest {

    @TempDir
    Path root;

    private final ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor();
    private final ManualClock clock = new ManualClock(Instant.parse("2024-01-01T10:00:00Z"));

    @AfterEach
    void stop() {
        scheduler.shutdownNow();
    }

    private MessageStore open() {
        ConfigValues values = ConfigValues.of(Map.of("mappedFileSizeCommitLog", "65536",
                "mappedFileSizeConsumeQueue", "81920", "maxHashSlotNum", "64", "maxIndexNum", "100",
                "messageDelayLevel", "1s 5s 1m"));
        return MessageStore.open(StoreConfig.from(values, root), new FileChannelTestBackend(),
                new SyncFlushPolicyProvider(), new PluginContext(clock, scheduler, ByteBufAllocator.DEFAULT, root),
                () -> 0.1);
    }

    private static BrokerMessage message(String topic, int queueId, String delay) {
        String props = MessageProperties.encode(delay == null ? Map.of(MessageProperties.TAGS, "TagA")
                : Map.of(MessageProperties.TAGS, "TagA", MessageProperties.DELAY, delay));
        return new BrokerMessage(topic, queueId, 0, "b".getBytes(StandardCharsets.UTF_8), props, 1L,
                TestMessages.BORN, TestMessages.STORE, 0, 0, 0L);
    }

    private static long tagsCode(MessageStore store, String topic, int queueId, long offset) {
        return store.queueEntry(topic, queueId, offset).orElseThrow().tagsCode();
    }

    @Test
    void scheduleEntriesGetStoreTimePlusTheLevelsDelay() throws Exception {
        long hash = MessageProperties.tagsCode("TagA");
        try (MessageStore store = open()) {
            assertThat(store.delayLevels().count()).isEqualTo(3);
            long stored = store.putMessages(List.of(message(DelayLevels.SCHEDULE_TOPIC, 1, "2")))
                    .get(10, TimeUnit.SECONDS).storeTimestamp();
            assertThat(tagsCode(store, DelayLevels.SCHEDULE_TOPIC, 1, 0)).isEqualTo(stored + 5_000);
            clock.advance(Duration.ofSeconds(1));
            store.putMessage(message(DelayLevels.SCHEDULE_TOPIC, 2, "7")).get(10, TimeUnit.SECONDS);
            assertThat(tagsCode(store, DelayLevels.SCHEDULE_TOPIC, 2, 0)).as("above the highest: the highest")
                    .isEqualTo(clock.millis() + 60_000);
            store.putMessage(message(DelayLevels.SCHEDULE_TOPIC, 0, "x")).get(10, TimeUnit.SECONDS);
            store.putMessage(message(DelayLevels.SCHEDULE_TOPIC, 0, "0")).get(10, TimeUnit.SECONDS);
            assertThat(tagsCode(store, DelayLevels.SCHEDULE_TOPIC, 0, 0)).as("not a level").isEqualTo(hash);
            assertThat(tagsCode(store, DelayLevels.SCHEDULE_TOPIC, 0, 1)).as("level 0").isEqualTo(hash);
            store.putMessage(message("TopicA", 0, "2")).get(10, TimeUnit.SECONDS);
            assertThat(tagsCode(store, "TopicA", 0, 0)).as("other topics keep the tag hash").isEqualTo(hash);
            assertThat(store.queueEntry("TopicA", 0, 1)).isEmpty();
        }
        try (MessageStore reopened = open()) {
            assertThat(reopened.queueEntry(DelayLevels.SCHEDULE_TOPIC, 1, 0).orElseThrow().tagsCode())
                    .isGreaterThan(hash);
        }
    }
}
