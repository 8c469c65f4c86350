package org.modmq.store.log;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.modmq.api.message.BrokerMessage;
import org.modmq.api.message.PutStatus;
import org.modmq.api.message.StoredMessage;
import org.modmq.store.FileChannelTestBackend;
import org.modmq.store.TestMessages;
import org.modmq.store.format.MessageDecoder;
import org.modmq.store.format.MessageLayout;
import org.modmq.store.segment.SegmentFiles;
import org.modmq.testkit.NettyLeakCheck;

@ExtendWith(NettyLeakCheck.class)
class CommitLogTest {

    static final int SEGMENT = 64 * 1024;

    @TempDir
    Path dir;

    private final FileChannelTestBackend backend = new FileChannelTestBackend();
    private final Clock clock = Clock.fixed(Instant.ofEpochMilli(1_700_000_000_123L), ZoneOffset.UTC);

    private CommitLog open() {
        SegmentFiles files = new SegmentFiles(backend, dir.resolve("commitlog"), SEGMENT, SEGMENT);
        files.load();
        CommitLog log = new CommitLog(files, new QueueOffsetTable(), clock, ByteBufAllocator.DEFAULT, 4 * 1024 * 1024);
        log.restoreEnd(0);
        return log;
    }

    @Test
    void assignsOffsetsAndReadsBack() {
        try (CommitLog log = open()) {
            AppendResult first = log.append(TestMessages.message("TopicA", 1, "hello"));
            AppendResult second = log.append(TestMessages.message("TopicA", 1, "world"));
            AppendResult other = log.append(TestMessages.message("TopicB", 0, "x"));
            assertThat(first.status()).isEqualTo(PutStatus.PUT_OK);
            assertThat(first.commitLogOffset()).isZero();
            assertThat(second.commitLogOffset()).isEqualTo(first.size());
            assertThat(second.queueOffset()).isEqualTo(1);
            assertThat(other.queueOffset()).isZero();
            assertThat(log.maxOffset()).isEqualTo(other.endOffset());
            ByteBuf record = log.readRecord(second.commitLogOffset());
            try {
                StoredMessage stored = MessageDecoder.decode(record, record.readerIndex(), true);
                assertThat(new String(stored.message().body())).isEqualTo("world");
                assertThat(stored.commitLogOffset()).isEqualTo(second.commitLogOffset());
                assertThat(stored.queueOffset()).isEqualTo(1);
                assertThat(stored.storeTimestamp()).isEqualTo(1_700_000_000_123L);
            } finally {
                record.release();
            }
        }
    }

    @Test
    void writesBlankMarkerAndRollsToNextSegment() {
        try (CommitLog log = open()) {
            String body = "b".repeat(1000);
            List<AppendResult> results = new ArrayList<>();
            while (log.maxOffset() < SEGMENT + 10) {
                results.add(log.append(TestMessages.message("T", 0, body)));
            }
            int size = results.get(0).size();
            int perSegment = (SEGMENT - MessageLayout.BLANK_LENGTH) / size;
            AppendResult rolled = results.get(perSegment);
            assertThat(rolled.commitLogOffset()).isEqualTo(SEGMENT);
            long blankAt = (long) perSegment * size;
            ByteBuf blank = log.read(blankAt, 8);
            try {
                assertThat(blank.getInt(0)).isEqualTo(SEGMENT - (int) blankAt);
                assertThat(blank.getInt(4)).isEqualTo(MessageLayout.BLANK_MAGIC);
            } finally {
                blank.release();
            }
            assertThat(log.files().starts()).containsExactly(0L, (long) SEGMENT);
            assertThat(rolled.queueOffset()).isEqualTo(perSegment);
        }
    }

    @Test
    void appendsBatchWithConsecutiveQueueOffsets() {
        try (CommitLog log = open()) {
            log.append(TestMessages.message("T", 2, "zero"));
            List<BrokerMessage> batch = List.of(TestMessages.message("T", 2, "a"), TestMessages.message("T", 2, "b"),
                    TestMessages.message("T", 2, "c"));
            AppendResult result = log.appendBatch(batch);
            assertThat(result.count()).isEqualTo(3);
            assertThat(result.queueOffset()).isEqualTo(1);
            assertThat(result.recordOffsets()).hasSize(3);
            ByteBuf third = log.readRecord(result.recordOffsets().get(2));
            try {
                assertThat(MessageDecoder.decode(third, third.readerIndex(), true).queueOffset()).isEqualTo(3);
            } finally {
                third.release();
            }
        }
    }

    @Test
    void rejectsTooLargeMessages() {
        try (CommitLog log = open()) {
            AppendResult result = log.append(TestMessages.message("T", 0, "x".repeat(SEGMENT)));
            assertThat(result.status()).isEqualTo(PutStatus.MESSAGE_ILLEGAL);
            assertThat(log.maxOffset()).isZero();
        }
    }

    @Test
    void replicatesBytesAndTruncates() {
        Path other = dir.resolve("replica");
        try (CommitLog master = open();
             SegmentFiles replicaFiles = new SegmentFiles(backend, other, SEGMENT, SEGMENT)) {
            CommitLog replica = replicaOn(replicaFiles);
            for (int i = 0; i < 100; i++) {
                master.append(TestMessages.message("T", 0, "m" + "x".repeat(900) + i));
            }
            long copied = 0;
            while (copied < master.maxOffset()) {
                copied += copy(master, replica, copied, 1000);
                assertThat(replica.confirmedOffset()).isLessThanOrEqualTo(copied);
            }
            assertThat(replica.confirmedOffset()).isEqualTo(master.maxOffset());
            assertThatThrownBy(() -> replica.append(5, io.netty.buffer.Unpooled.EMPTY_BUFFER))
                    .isInstanceOf(IllegalArgumentException.class);
            replica.truncate(SEGMENT / 2);
            assertThat(replica.maxOffset()).isEqualTo(SEGMENT / 2);
            assertThat(replicaFiles.starts()).containsExactly(0L);
            assertThat(replica.readInt(SEGMENT / 2 - 4)).isNotEqualTo(-1);
        }
    }

    @Test
    void replicatedBytesSplitAnywhereConfirmExactlyTheWholeRecords() {
        Path other = dir.resolve("replica-split");
        try (CommitLog master = open();
             SegmentFiles replicaFiles = new SegmentFiles(backend, other, SEGMENT, SEGMENT)) {
            CommitLog replica = replicaOn(replicaFiles);
            java.util.TreeSet<Long> ends = new java.util.TreeSet<>(List.of(0L));
            for (int i = 0; i < 300; i++) {
                ends.add(master.append(TestMessages.message("T", i % 3, "m" + "x".repeat(i * 7 % 700) + i)).endOffset());
            }
            assertThat(master.maxOffset()).as("the records fill more than two segments").isGreaterThan(2L * SEGMENT);
            for (long start = SEGMENT; start < master.maxOffset(); start += SEGMENT) {
                ends.add(start); // after a segment's blank tail
            }
            // Transfers of 1 to 11 bytes and then larger ones: a header split at every position, records
            // ending inside, at and after a transfer's end, and a segment's blank tail.
            int[] sizes = {1, 2, 3, 5, 7, 11, 900, 4096, 13};
            long copied = 0;
            for (int n = 0; copied < master.maxOffset(); n++) {
                copied += copy(master, replica, copied, sizes[n % sizes.length]);
                assertThat(replica.confirmedOffset()).as("confirmed after %d bytes", copied)
                        .isEqualTo(ends.floor(copied));
            }
            assertThat(replica.confirmedOffset()).isEqualTo(master.maxOffset());
        }
    }

    /** A log on {@code files} that takes replicated bytes from offset 0. */
    private CommitLog replicaOn(SegmentFiles files) {
        files.load();
        CommitLog replica = new CommitLog(files, new QueueOffsetTable(), clock, ByteBufAllocator.DEFAULT, 1 << 20);
        replica.restoreEnd(0);
        replica.mode(LogMode.REPLICATED);
        return replica;
    }

    /** Appends up to {@code max} of the master's bytes from {@code from} to the replica; returns how many. */
    private static int copy(CommitLog master, CommitLog replica, long from, int max) {
        ByteBuf chunk = master.read(from, max);
        try {
            replica.append(from, chunk);
            return chunk.readableBytes();
        } finally {
            chunk.release();
        }
    }

    @Test
    void flushMakesEverythingDurable() {
        try (CommitLog log = open()) {
            log.append(TestMessages.message("T", 0, "a"));
            assertThat(log.durableOffset()).isZero();
            assertThat(log.flush()).isEqualTo(log.maxOffset());
            assertThat(log.durableOffset()).isEqualTo(log.maxOffset());
        }
    }
}
