package org.modmq.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.modmq.api.config.ConfigValues;
import org.modmq.api.message.PutStatus;
import org.modmq.api.spi.PluginContext;
import org.modmq.api.spi.storage.StorageException;
import org.modmq.store.faulty.control.Fault;
import org.modmq.store.faulty.control.FaultControl;
import org.modmq.store.faulty.control.FaultyStorage;
import org.modmq.store.faulty.control.Operation;
import org.modmq.store.format.MessageDecoder;
import org.modmq.testkit.NettyLeakCheck;

/** The store under injected storage errors: clear answers, nothing half-written served, recovery when they clear. */
@Timeout(60)
@ExtendWith(NettyLeakCheck.class)
class StoreFaultsTest {

    private static final String TOPIC = "Faults";
    private static final Predicate<Path> COMMIT_LOG = file -> file.getParent().getFileName().toString().equals("commitlog");
    private static final Predicate<Path> CONSUME_QUEUES = file -> file.toString().contains("consumequeue");

    @TempDir
    Path root;

    // Several threads: a held ConsumeQueue force (slow forces) must not stop the flush timeout's sweep.
    private final ScheduledExecutorService scheduler = Executors.newScheduledThreadPool(4);
    private FaultControl control;
    private MessageStore store;
    private final List<Boolean> writability = new CopyOnWriteArrayList<>();

    @AfterEach
    void stop() {
        if (store != null) {
            control.clearAll();
            store.close();
        }
        scheduler.shutdownNow();
        FaultyStorage.forget(root);
    }

    private MessageStore open(Map<String, String> extra) {
        Map<String, String> values = new HashMap<>(Map.of("storeBackend", FaultyStorage.NAME, "flushDiskType",
                "SYNC_FLUSH", "storePathRootDir", root.toString(), "mappedFileSizeCommitLog", "65536",
                "mappedFileSizeConsumeQueue", "4000", "maxHashSlotNum", "64", "maxIndexNum", "512",
                MessageStore.PROBE_INTERVAL_KEY, "20"));
        values.putAll(extra);
        control = FaultyStorage.control(root);
        store = MessageStore.open(ConfigValues.of(values),
                new PluginContext(Clock.systemUTC(), scheduler, ByteBufAllocator.DEFAULT, root));
        store.addWritabilityListener(writability::add);
        return store;
    }

    private PutResult put(String body) throws Exception {
        return store.putMessage(TestMessages.message(TOPIC, 0, body)).get(20, TimeUnit.SECONDS);
    }

    private String bodyAt(long queueOffset) {
        try (GetMessageResult read = store.getMessages(TOPIC, 0, queueOffset, 1, t -> true, 1 << 20)) {
            assertThat(read.status()).isEqualTo(GetMessageStatus.FOUND);
            ByteBuf record = read.messages().get(0);
            return new String(MessageDecoder.decode(record, record.readerIndex(), true).message().body(),
                    StandardCharsets.UTF_8);
        }
    }

    /** Power loss (faults still on, so nothing is forced in between), then a fresh store on the same files. */
    private void crashAndReopen() {
        control.powerLoss();
        assertThatThrownBy(store::close).isInstanceOf(StorageException.class);
        store = null;
        control.clearAll();
        open(Map.of());
    }

    @Test
    void failedCommitLogWriteIsRefusedAndNeverServed() throws Exception {
        open(Map.of());
        assertThat(put("before").status()).isEqualTo(PutStatus.PUT_OK);
        long end = store.getCommitLogMaxOffset();
        control.fail(Operation.WRITE, Fault.EIO, COMMIT_LOG);

        PutResult torn = put("torn");
        assertThat(torn.status()).isEqualTo(PutStatus.UNKNOWN_ERROR);
        assertThat(torn.detail()).contains(Fault.EIO.message());
        assertThat(store.writable()).isFalse();
        assertThat(writability).containsExactly(false);
        PutResult refused = put("refused");
        assertThat(refused.status()).isEqualTo(PutStatus.SERVICE_NOT_AVAILABLE);
        assertThat(refused.detail()).contains("not writable").contains(Fault.EIO.message());
        assertThat(store.getCommitLogMaxOffset()).isEqualTo(end);
        assertThat(store.getMaxOffsetInQueue(TOPIC, 0)).isEqualTo(1);

        control.clear(Operation.WRITE);
        Polling.until("the probe to find the CommitLog writable", store::writable);
        assertThat(writability).containsExactly(false, true);
        PutResult after = put("after");
        assertThat(after.status()).isEqualTo(PutStatus.PUT_OK);
        assertThat(after.queueOffset()).isEqualTo(1);

        crashAndReopen();
        assertThat(store.getMaxOffsetInQueue(TOPIC, 0)).isEqualTo(2);
        assertThat(bodyAt(0)).isEqualTo("before");
        assertThat(bodyAt(1)).isEqualTo("after");
    }

    @Test
    void failedForceIsNeverAnAcknowledgement() throws Exception {
        open(Map.of());
        control.fail(Operation.FORCE, Fault.EIO, COMMIT_LOG);
        PutResult unforced = put("unforced");
        assertThat(unforced.status()).isEqualTo(PutStatus.FLUSH_DISK_TIMEOUT);
        assertThat(unforced.detail()).contains("force failed").contains(Fault.EIO.message());
        assertThat(store.writable()).isFalse();
        assertThat(put("refused").status()).isEqualTo(PutStatus.SERVICE_NOT_AVAILABLE);

        control.clear(Operation.FORCE);
        Polling.until("the probe's force to succeed", store::writable);
        assertThat(put("forced").status()).isEqualTo(PutStatus.PUT_OK);
        assertThat(store.getFlushedOffset()).isEqualTo(store.getCommitLogMaxOffset());
    }

    @Test
    void unforcedMessageIsGoneAfterPowerLoss() throws Exception {
        open(Map.of());
        assertThat(put("durable").status()).isEqualTo(PutStatus.PUT_OK);
        control.fail(Operation.FORCE, Fault.EIO, COMMIT_LOG);
        assertThat(put("unforced").status()).isEqualTo(PutStatus.FLUSH_DISK_TIMEOUT);
        crashAndReopen();
        assertThat(store.getMaxOffsetInQueue(TOPIC, 0)).isEqualTo(1);
        assertThat(bodyAt(0)).isEqualTo("durable");
    }

    @Test
    void slowForceAnswersFlushDiskTimeoutAndKeepsTheStoreWritable() throws Exception {
        open(Map.of("syncFlushTimeout", "200"));
        control.slowForces(Duration.ofSeconds(30));
        PutResult late = put("late");
        assertThat(late.status()).isEqualTo(PutStatus.FLUSH_DISK_TIMEOUT);
        assertThat(late.detail()).contains("not forced within 200 ms");
        control.slowForces(Duration.ZERO);
        assertThat(store.writable()).isTrue();
        // The force already under way may still be slow, and a loaded host can take 200 ms for a real one:
        // what counts is that the store keeps taking puts and answers PUT_OK once forces are quick.
        PutStatus status = put("in time").status();
        for (int attempt = 0; attempt < 20 && status == PutStatus.FLUSH_DISK_TIMEOUT; attempt++) {
            assertThat(store.writable()).isTrue();
            status = put("in time " + attempt).status();
        }
        assertThat(status).isEqualTo(PutStatus.PUT_OK);
    }

    @Test
    void failedConsumeQueueWriteHoldsTheMessageBackUntilDispatchWorks() throws Exception {
        open(Map.of());
        assertThat(put("first").status()).isEqualTo(PutStatus.PUT_OK);
        control.fail(Operation.WRITE, Fault.ENOSPC, CONSUME_QUEUES);
        PutResult stored = put("second");
        assertThat(stored.status()).as("stored and forced in the CommitLog").isEqualTo(PutStatus.PUT_OK);
        assertThat(store.getMaxOffsetInQueue(TOPIC, 0)).as("not dispatched, so not served").isEqualTo(1);
        assertThat(store.writable()).isFalse();
        assertThat(store.unwritableReason()).contains(Fault.ENOSPC.message());
        assertThat(put("refused").status()).isEqualTo(PutStatus.SERVICE_NOT_AVAILABLE);

        control.clear(Operation.WRITE);
        Polling.until("dispatch to catch up", store::writable);
        assertThat(store.getMaxOffsetInQueue(TOPIC, 0)).isEqualTo(2);
        assertThat(bodyAt(1)).isEqualTo("second");
    }

    @Test
    void failedReadIsAnErrorNotAPartialAnswer() throws Exception {
        open(Map.of());
        for (int i = 0; i < 3; i++) {
            assertThat(put("m" + i).status()).isEqualTo(PutStatus.PUT_OK);
        }
        control.fail(Operation.READ, Fault.EIO, COMMIT_LOG);
        assertThatThrownBy(() -> store.getMessages(TOPIC, 0, 0, 32, t -> true, 1 << 20).close())
                .isInstanceOf(StorageException.class).hasMessageContaining(Fault.EIO.message());
        control.clear(Operation.READ);
        assertThat(bodyAt(2)).isEqualTo("m2");
        assertThat(store.writable()).isTrue();
    }
}
