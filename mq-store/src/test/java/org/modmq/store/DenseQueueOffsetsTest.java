package org.modmq.store;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.modmq.api.config.ConfigValues;
import org.modmq.api.message.BrokerMessage;
import org.modmq.api.message.MessageSysFlag;
import org.modmq.api.message.PutStatus;
import org.modmq.api.spi.PluginContext;
import org.modmq.store.flush.SyncFlushPolicyProvider;
import org.modmq.store.format.MessageDecoder;
import org.modmq.testkit.ManualClock;
import org.modmq.testkit.NettyLeakCheck;

/** Prepared and rolled-back transaction records take no queue offset, so queues have no holes. */
@Timeout(60)
@ExtendWith(NettyLeakCheck.class)
class DenseQueueOffsetsTest {

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
                "mappedFileSizeConsumeQueue", "81920", "syncFlushTimeout", "2000"));
        return MessageStore.open(StoreConfig.from(values, root), new FileChannelTestBackend(),
                new SyncFlushPolicyProvider(), new PluginContext(clock, scheduler, ByteBufAllocator.DEFAULT, root),
                () -> 0.1);
    }

    private static BrokerMessage message(String body, int transactionType) {
        BrokerMessage plain = TestMessages.message("Dense", 0, body);
        return new BrokerMessage(plain.topic(), plain.queueId(), plain.flag(), plain.body(), plain.properties(),
                plain.bornTimestamp(), plain.bornHost(), plain.storeHost(), transactionType, 0, 0L);
    }

    private static PutResult put(MessageStore store, String body, int type) throws Exception {
        PutResult result = store.putMessage(message(body, type)).get(10, TimeUnit.SECONDS);
        assertThat(result.status()).isEqualTo(PutStatus.PUT_OK);
        return result;
    }

    private static List<String> pullAll(MessageStore store) {
        List<String> bodies = new ArrayList<>();
        try (GetMessageResult result = store.getMessages("Dense", 0, 0, 64, tag -> true, 1 << 20)) {
            for (int i = 0; i < result.messages().size(); i++) {
                ByteBuf record = result.messages().get(i);
                var stored = MessageDecoder.decode(record, record.readerIndex(), true);
                assertThat(stored.queueOffset()).isEqualTo(result.queueOffsets().get(i)).isEqualTo(i);
                bodies.add(new String(stored.message().body()));
            }
        }
        return bodies;
    }

    @Test
    void preparedAndRolledBackRecordsTakeNoQueueOffsetAndEveryOffsetPulls() throws Exception {
        int prepared = MessageSysFlag.TRANSACTION_PREPARED_TYPE;
        int rollback = MessageSysFlag.TRANSACTION_ROLLBACK_TYPE;
        int commit = MessageSysFlag.TRANSACTION_COMMIT_TYPE;
        try (MessageStore store = open()) {
            List<Long> answered = new ArrayList<>();
            answered.add(put(store, "n0", 0).queueOffset());
            assertThat(put(store, "p0", prepared).queueOffset()).isZero();
            answered.add(put(store, "n1", 0).queueOffset());
            assertThat(put(store, "r0", rollback).queueOffset()).isZero();
            assertThat(put(store, "p1", prepared).queueOffset()).isZero();
            answered.add(put(store, "c0", commit).queueOffset());
            answered.add(put(store, "n2", 0).queueOffset());
            assertThat(answered).containsExactly(0L, 1L, 2L, 3L);
            assertThat(store.getMaxOffsetInQueue("Dense", 0)).isEqualTo(4);
            assertThat(pullAll(store)).containsExactly("n0", "n1", "c0", "n2");
            for (long offset = 0; offset < 4; offset++) {
                try (GetMessageResult one = store.getMessages("Dense", 0, offset, 1, tag -> true, 1 << 20)) {
                    assertThat(one.status()).isEqualTo(GetMessageStatus.FOUND);
                    assertThat(one.queueOffsets()).containsExactly(offset);
                }
            }
        }
        try (MessageStore reopened = open()) {
            assertThat(reopened.getMaxOffsetInQueue("Dense", 0)).isEqualTo(4);
            assertThat(put(reopened, "p2", prepared).queueOffset()).isZero();
            assertThat(put(reopened, "n3", 0).queueOffset()).isEqualTo(4);
            assertThat(pullAll(reopened)).containsExactly("n0", "n1", "c0", "n2", "n3");
        }
    }

    @Test
    void aBatchGivesOffsetsOnlyToTheRecordsThatTakeOne() throws Exception {
        try (MessageStore store = open()) {
            put(store, "n0", 0);
            PutResult batch = store.putMessages(List.of(message("b0", 0),
                    message("b1", MessageSysFlag.TRANSACTION_ROLLBACK_TYPE), message("b2", 0)))
                    .get(10, TimeUnit.SECONDS);
            assertThat(batch.queueOffset()).isEqualTo(1);
            assertThat(put(store, "n1", 0).queueOffset()).isEqualTo(3);
            assertThat(pullAll(store)).containsExactly("n0", "b0", "b2", "n1");
        }
    }
}
