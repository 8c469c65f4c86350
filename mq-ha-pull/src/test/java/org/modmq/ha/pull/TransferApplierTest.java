package org.modmq.ha.pull;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.buffer.Unpooled;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.modmq.api.spi.replication.EpochEntry;
import org.modmq.testkit.NettyLeakCheck;

/** Transfer frames applied to an in-memory replica log: epochs recorded first, fencing, refusals. */
@ExtendWith(NettyLeakCheck.class)
class TransferApplierTest {

    private static final int SEGMENT = 64;

    private static EpochEntry e(int epoch, long start) {
        return new EpochEntry(epoch, start);
    }

    private static TransferApplier applier(MemoryLog log, EpochEntry... master) {
        return new TransferApplier(log, new EpochTimeline(List.of(master), Long.MAX_VALUE));
    }

    /** A frame of {@code size} bytes (released by the caller through {@link #apply}). */
    private static MasterFrame.Transfer frame(long offset, int size, EpochEntry label, long confirm) {
        return new MasterFrame.Transfer(offset, label.epoch(), label.startOffset(), confirm,
                Unpooled.wrappedBuffer(new byte[size]));
    }

    private static boolean apply(TransferApplier applier, MasterFrame.Transfer frame) throws RefusalException {
        try {
            return applier.apply(frame);
        } finally {
            frame.body().release();
        }
    }

    @Test
    void bytesUpToAnEpochsEndThenTheNextEpochIsRecordedAtOnce() throws Exception {
        MemoryLog log = MemoryLog.holding(SEGMENT, 0, 80, e(1, 0));
        TransferApplier applier = applier(log, e(1, 0), e(2, 100));
        assertThat(apply(applier, frame(80, 20, e(1, 0), 90))).isTrue();
        assertThat(log.journal()).containsExactly("append 80+20", "startEpoch 2-100", "confirm 90");
        assertThat(apply(applier, frame(100, 5, e(2, 100), 100))).isTrue();
        assertThat(log.epochs()).containsExactly(e(1, 0), e(2, 100));
        assertThat(log.maxOffset()).isEqualTo(105);
    }

    @Test
    void rocketMqsBoundaryLabelIsAccepted() throws Exception {
        MemoryLog log = MemoryLog.holding(SEGMENT, 0, 80, e(1, 0));
        TransferApplier applier = applier(log, e(1, 0), e(2, 100));
        assertThat(apply(applier, frame(80, 20, e(2, 100), 80))).isTrue();
        assertThat(log.journal()).containsExactly("append 80+20", "startEpoch 2-100", "confirm 80");
    }

    @Test
    void anEpochStartingAtTheLogsEndIsRecordedBeforeItsBytes() throws Exception {
        MemoryLog log = MemoryLog.holding(SEGMENT, 0, 100, e(1, 0));
        TransferApplier applier = applier(log, e(1, 0), e(2, 100), e(3, 100));
        assertThat(apply(applier, frame(100, 10, e(3, 100), 0))).isTrue();
        assertThat(log.journal()).containsExactly("startEpoch 2-100", "startEpoch 3-100", "append 100+10",
                "confirm 0");
    }

    @Test
    void aHeartbeatAtAnEpochBoundaryRecordsTheEpoch() throws Exception {
        MemoryLog log = MemoryLog.holding(SEGMENT, 0, 100, e(1, 0));
        TransferApplier applier = applier(log, e(1, 0), e(2, 100));
        assertThat(apply(applier, frame(100, 0, e(2, 100), 100))).isFalse();
        assertThat(log.journal()).containsExactly("startEpoch 2-100", "confirm 100");
    }

    @Test
    void anEmptyLogStartsAtASegmentInsideAnEpochAndRecordsItAfterTheFirstBytes() throws Exception {
        MemoryLog log = new MemoryLog(SEGMENT);
        TransferApplier applier = applier(log, e(1, 0), e(2, 100));
        // A RocketMQ master with an empty log heartbeats offset -1 and its first epoch.
        assertThat(apply(applier, frame(-1, 0, e(1, 0), -1))).isFalse();
        assertThat(apply(applier, frame(128, 10, e(2, 100), 0))).isTrue();
        assertThat(log.journal()).containsExactly("append 128+10", "startEpoch 2-100", "confirm 0");
        assertThat(log.minOffset()).isEqualTo(128);
    }

    @Test
    void refusalsAppendNothing() {
        MemoryLog log = MemoryLog.holding(SEGMENT, 0, 80, e(1, 0));
        TransferApplier applier = applier(log, e(1, 0), e(2, 100));
        assertThatThrownBy(() -> apply(applier, frame(70, 10, e(1, 0), 0))).as("not at the log's end")
                .isInstanceOf(RefusalException.class).hasMessageContaining("ends at 80");
        assertThatThrownBy(() -> apply(applier, frame(80, 30, e(1, 0), 0))).as("crosses the epoch's end")
                .isInstanceOf(RefusalException.class).hasMessageContaining("cross");
        assertThatThrownBy(() -> apply(applier, frame(80, 10, e(2, 100), 0))).as("labelled with a later epoch")
                .isInstanceOf(RefusalException.class).hasMessageContaining("belong to epoch 1");
        assertThatThrownBy(() -> apply(applier, frame(80, 10, e(5, 80), 0))).as("an epoch the handshake lacks")
                .isInstanceOf(RefusalException.class).hasMessageContaining("lacks");
        MemoryLog empty = new MemoryLog(SEGMENT);
        assertThatThrownBy(() -> apply(applier(empty, e(1, 0)), frame(130, 10, e(1, 0), 0)))
                .as("an empty log starts only at a segment start").isInstanceOf(RefusalException.class);
        assertThat(log.journal()).isEmpty();
        assertThat(empty.journal()).isEmpty();
        assertThat(empty.epochs()).isEmpty();
    }

    @Test
    void bytesOfAnEpochOlderThanTheLogsLastAreFenced() {
        MemoryLog log = MemoryLog.holding(SEGMENT, 0, 100, e(1, 0), e(3, 100));
        assertThatThrownBy(() -> apply(applier(log, e(1, 0), e(2, 100)), frame(100, 10, e(2, 100), 0)))
                .isInstanceOf(RefusalException.class).hasMessageContaining("fenced");
        assertThatThrownBy(() -> apply(applier(log, e(1, 0), e(2, 100)), frame(100, 0, e(2, 100), 0)))
                .as("a heartbeat does not record it either").isInstanceOf(RefusalException.class);
        assertThat(log.journal()).isEmpty();
    }

    @Test
    void anEpochThatWouldStartInsideHeldBytesIsRefused() {
        MemoryLog mismatch = MemoryLog.holding(SEGMENT, 0, 100, e(1, 0), e(2, 90));
        assertThatThrownBy(() -> apply(applier(mismatch, e(1, 0), e(2, 100)), frame(100, 10, e(2, 100), 0)))
                .isInstanceOf(RefusalException.class).hasMessageContaining("starts at 90 here");
        MemoryLog inside = MemoryLog.holding(SEGMENT, 0, 100, e(1, 0));
        assertThatThrownBy(() -> apply(applier(inside, e(1, 0), e(2, 50)), frame(100, 10, e(2, 50), 0)))
                .isInstanceOf(RefusalException.class).hasMessageContaining("inside bytes");
        assertThat(mismatch.journal()).isEmpty();
        assertThat(inside.journal()).isEmpty();
    }

    @Test
    void aLogThatBecameMastersRefusesWithIllegalState() {
        MemoryLog log = MemoryLog.holding(SEGMENT, 0, 80, e(1, 0));
        log.master(true);
        assertThatThrownBy(() -> apply(applier(log, e(1, 0)), frame(80, 10, e(1, 0), 0)))
                .isInstanceOf(IllegalStateException.class);
        assertThat(log.maxOffset()).isEqualTo(80);
    }
}
