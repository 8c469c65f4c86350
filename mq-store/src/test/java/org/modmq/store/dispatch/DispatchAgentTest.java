package org.modmq.store.dispatch;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBufAllocator;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.modmq.api.message.BrokerMessage;
import org.modmq.store.FileChannelTestBackend;
import org.modmq.store.TestMessages;
import org.modmq.store.index.IndexStore;
import org.modmq.store.log.CommitLog;
import org.modmq.store.log.QueueOffsetTable;
import org.modmq.store.queue.ConsumeQueue;
import org.modmq.store.queue.ConsumeQueueEntry;
import org.modmq.store.queue.ConsumeQueueTable;
import org.modmq.store.segment.SegmentFiles;
import org.modmq.testkit.ManualClock;
import org.modmq.testkit.NettyLeakCheck;

/** Dispatch of local appends from the summaries the append offers, and its fallback to reading back. */
@ExtendWith(NettyLeakCheck.class)
class DispatchAgentTest {

    private static final int SEGMENT = 64 * 1024;

    @TempDir
    Path root;

    private final ManualClock clock = new ManualClock(Instant.parse("2024-01-10T10:00:00Z"));
    private final FileChannelTestBackend logBackend = new FileChannelTestBackend();
    private final FileChannelTestBackend logicsBackend = new FileChannelTestBackend();
    private final List<AutoCloseable> open = new ArrayList<>();

    @AfterEach
    void close() throws Exception {
        for (AutoCloseable closeable : open) {
            closeable.close();
        }
    }

    @Test
    void offeredAppendsAreDispatchedWithoutReadingTheLogBack() {
        Store offered = store("offered", true);
        Store readBack = store("read-back", false);
        for (Store store : List.of(offered, readBack)) {
            appendBatches(store.log(), 5);
        }
        logBackend.reads.set(0);
        int dispatched = offered.dispatch().doWork();
        assertThat(logBackend.reads).as("CommitLog reads while dispatching offered appends").hasValue(0);

        assertThat(readBack.dispatch().doWork()).isEqualTo(dispatched).isEqualTo(5 * 4 + 1);
        assertThat(logBackend.reads.get()).isPositive();
        assertThat(entries(offered)).isNotEmpty().isEqualTo(entries(readBack));
        assertThat(offered.dispatch().dispatchedOffset()).isEqualTo(offered.log().maxOffset());
    }

    @Test
    void aLimitInsideAnOfferedBatchDispatchesWhatIsBelowItAndTheRestLater() {
        Store offered = store("limited", true);
        Store readBack = store("reference", false);
        appendBatches(offered.log(), 3);
        appendBatches(readBack.log(), 3);
        assertThat(offered.dispatch().waitingOffers()).isEqualTo(1 + 3);
        long limit = offered.log().maxOffset() / 2;
        offered.dispatch().limit(() -> limit);
        offered.dispatch().doWork();
        assertThat(offered.dispatch().dispatchedOffset()).isLessThanOrEqualTo(limit).isPositive();
        int waiting = offered.dispatch().waitingOffers();
        assertThat(waiting).as("offers above the limit").isPositive().isLessThan(1 + 3);

        offered.dispatch().limit(() -> Long.MAX_VALUE);
        offered.dispatch().doWork();
        readBack.dispatch().doWork();
        assertThat(offered.dispatch().dispatchedOffset()).isEqualTo(offered.log().maxOffset());
        assertThat(offered.dispatch().waitingOffers()).as("offers after everything is dispatched").isZero();
        assertThat(entries(offered)).isEqualTo(entries(readBack));
    }

    @Test
    void offersTheReadBackPassedOrATruncationResetAreDropped() {
        Store store = store("stale", true);
        appendBatches(store.log(), 2);
        // The last batch, which the limit cuts, is read back up to the limit; its offer is passed and goes.
        long end = store.log().maxOffset();
        store.dispatch().limit(() -> end - 1);
        store.dispatch().doWork();
        store.dispatch().limit(() -> Long.MAX_VALUE);
        store.dispatch().doWork();
        assertThat(store.dispatch().waitingOffers()).isZero();
        assertThat(entries(store)).hasSize(1 + 2 * 4);

        store.dispatch().limit(() -> end);
        appendBatches(store.log(), 1);
        assertThat(store.dispatch().waitingOffers()).isEqualTo(2);
        store.dispatch().resetTo(end);
        assertThat(store.dispatch().waitingOffers()).isZero();
        // An offer behind the dispatched offset (its appender lost the race to the read-back) is not kept.
        store.dispatch().offer(0, end, List.of());
        assertThat(store.dispatch().waitingOffers()).isZero();
    }

    private record Store(CommitLog log, ConsumeQueueTable queues, DispatchAgent dispatch) {
    }

    private Store store(String name, boolean observe) {
        SegmentFiles files = new SegmentFiles(logBackend, root.resolve(name).resolve("commitlog"), SEGMENT, SEGMENT);
        files.load();
        CommitLog log = new CommitLog(files, new QueueOffsetTable(), clock, ByteBufAllocator.DEFAULT, 1 << 20);
        log.restoreEnd(0);
        ConsumeQueueTable queues = new ConsumeQueueTable(logicsBackend, root.resolve(name).resolve("consumequeue"), 100);
        IndexStore index = new IndexStore(logicsBackend, root.resolve(name).resolve("index"), clock, 64, 512);
        index.load();
        DispatchAgent dispatch = new DispatchAgent(log, queues, index, 0);
        if (observe) {
            log.observeAppends(dispatch::offer);
        }
        open.add(log::close);
        open.add(queues);
        open.add(index);
        return new Store(log, queues, dispatch);
    }

    /** One single message, then {@code batches} batches of four to queue 1 with tags and keys. */
    private static void appendBatches(CommitLog log, int batches) {
        log.append(TestMessages.message("T", 0, "single"));
        for (int b = 0; b < batches; b++) {
            int batch = b;
            List<BrokerMessage> messages = IntStream.range(0, 4)
                    .mapToObj(i -> TestMessages.message("T", 1, "body-" + batch + "-" + i, "tag" + i, "key" + batch))
                    .toList();
            assertThat(log.appendBatch(messages).ok()).isTrue();
        }
    }

    private static List<ConsumeQueueEntry> entries(Store store) {
        List<ConsumeQueueEntry> all = new ArrayList<>();
        for (int queueId = 0; queueId < 2; queueId++) {
            ConsumeQueue queue = store.queues().get("T", queueId, false);
            if (queue == null) {
                continue;
            }
            for (long offset = queue.minOffset(); offset < queue.maxOffset(); offset++) {
                all.add(queue.entry(offset));
            }
        }
        return all;
    }
}
