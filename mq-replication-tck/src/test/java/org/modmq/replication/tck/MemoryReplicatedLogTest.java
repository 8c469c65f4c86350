package org.modmq.replication.tck;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import org.junit.jupiter.api.Test;
import org.modmq.api.spi.replication.EpochEntry;

/** The kit's log keeps the store's rules, so a strategy that passes the kit does not rely on laxer ones. */
class MemoryReplicatedLogTest {

    private static final int SEGMENT = 1024;

    private static void append(MemoryReplicatedLog log, long offset, byte[] bytes) {
        ByteBuf buf = Unpooled.wrappedBuffer(bytes);
        try {
            log.append(offset, buf);
        } finally {
            buf.release();
        }
    }

    @Test
    void aMastersWritesDifferFromAnotherLogsAndReadsStopAtTheSegmentEnd() {
        MemoryReplicatedLog a = new MemoryReplicatedLog(SEGMENT, 1);
        MemoryReplicatedLog b = new MemoryReplicatedLog(SEGMENT, 2);
        a.becomeMaster(1);
        b.becomeMaster(1);
        assertThat(a.write(1500)).isEqualTo(1500);
        b.write(1500);
        assertThat(a.bytes(0)).isNotEqualTo(b.bytes(0));
        ByteBuf read = a.read(1000, 4096);
        try {
            assertThat(read.readableBytes()).as("up to the segment end at 1024").isEqualTo(24);
        } finally {
            read.release();
        }
        assertThat(a.epochs()).containsExactly(new EpochEntry(1, 0));
        assertThatThrownBy(() -> a.truncate(0)).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> append(a, 1500, new byte[1])).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> a.read(1501, 1)).isInstanceOf(IndexOutOfBoundsException.class);
    }

    @Test
    void replicatedBytesStartAtTheEndOrAnEmptyLogsSegmentStart() {
        MemoryReplicatedLog log = new MemoryReplicatedLog(SEGMENT, 1);
        assertThatThrownBy(() -> append(log, 100, new byte[10])).isInstanceOf(IllegalArgumentException.class);
        append(log, 2 * SEGMENT, new byte[10]);
        assertThat(log.minOffset()).isEqualTo(2 * SEGMENT);
        assertThatThrownBy(() -> append(log, 3 * SEGMENT, new byte[10])).isInstanceOf(IllegalArgumentException.class);
        append(log, 2 * SEGMENT + 10, new byte[5]);
        assertThat(log.maxOffset()).isEqualTo(2 * SEGMENT + 15);
        assertThat(log.appendOffsets()).containsExactly(2L * SEGMENT, 2L * SEGMENT + 10);
    }

    @Test
    void epochsGrowAndTruncationDropsTheBytesAndTheEntriesAboveIt() {
        MemoryReplicatedLog log = new MemoryReplicatedLog(SEGMENT, 1);
        append(log, 0, new byte[300]);
        log.startEpoch(new EpochEntry(1, 0));
        log.startEpoch(new EpochEntry(1, 0));
        log.startEpoch(new EpochEntry(3, 200));
        assertThatThrownBy(() -> log.startEpoch(new EpochEntry(2, 250))).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> log.startEpoch(new EpochEntry(4, 301))).isInstanceOf(IllegalArgumentException.class);
        log.confirm(1_000);
        assertThat(log.confirmOffset()).as("clamped to the end").isEqualTo(300);
        log.truncate(200);
        assertThat(log.maxOffset()).isEqualTo(200);
        assertThat(log.epochs()).containsExactly(new EpochEntry(1, 0));
        assertThat(log.confirmOffset()).isEqualTo(200);
        log.truncate(0);
        assertThat(log.maxOffset()).isZero();
        assertThat(log.epochs()).isEmpty();
        assertThat(log.truncations()).containsExactly(200L, 0L);
    }
}
