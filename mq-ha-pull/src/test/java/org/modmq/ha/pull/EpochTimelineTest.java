package org.modmq.ha.pull;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.modmq.api.spi.replication.EpochEntry;

/** RocketMQ's consistent point and the epoch lookups, on hand-made histories. */
class EpochTimelineTest {

    private static EpochTimeline timeline(long end, EpochEntry... entries) {
        return new EpochTimeline(List.of(entries), end);
    }

    private static EpochEntry e(int epoch, long start) {
        return new EpochEntry(epoch, start);
    }

    @Test
    void aReplicaBehindAgreesUpToItsEnd() {
        EpochTimeline local = timeline(150, e(1, 0), e(2, 100));
        EpochTimeline master = timeline(300, e(1, 0), e(2, 100), e(3, 200));
        assertThat(local.consistentPointWith(master)).contains(new EpochTimeline.ConsistentPoint(150, 1));
    }

    @Test
    void aTailWrittenInAnEpochTheMasterNeverSawIsCutAtTheLastCommonEpochsEnd() {
        EpochTimeline local = timeline(180, e(1, 0), e(2, 100));
        EpochTimeline master = timeline(300, e(1, 0), e(3, 120));
        assertThat(local.consistentPointWith(master)).contains(new EpochTimeline.ConsistentPoint(100, 0));
    }

    @Test
    void anOldMastersTailIsCutWhereTheNewMastersEpochStarts() {
        EpochTimeline local = timeline(500, e(1, 0));
        EpochTimeline master = timeline(400, e(1, 0), e(2, 300));
        assertThat(local.consistentPointWith(master)).contains(new EpochTimeline.ConsistentPoint(300, 0));
    }

    @Test
    void anEpochWithAnotherStartDoesNotMatch() {
        EpochTimeline local = timeline(150, e(1, 0), e(2, 100));
        EpochTimeline master = timeline(300, e(1, 0), e(2, 90), e(3, 200));
        assertThat(local.consistentPointWith(master)).contains(new EpochTimeline.ConsistentPoint(90, 0));
    }

    @Test
    void historiesWithoutACommonEpochHaveNoPoint() {
        assertThat(timeline(100, e(2, 0)).consistentPointWith(timeline(300, e(1, 0), e(3, 50))))
                .isEqualTo(Optional.empty());
        assertThat(timeline(0).consistentPointWith(timeline(300, e(1, 0)))).isEmpty();
    }

    @Test
    void coveringPassesOverEpochsWithoutBytes() {
        EpochTimeline master = timeline(Long.MAX_VALUE, e(1, 0), e(2, 100), e(3, 100), e(4, 200));
        assertThat(master.covering(50)).isZero();
        assertThat(master.covering(100)).isEqualTo(2);
        assertThat(master.covering(199)).isEqualTo(2);
        assertThat(master.covering(200)).isEqualTo(3);
        assertThat(master.covering(1L << 40)).isEqualTo(3);
        assertThat(master.endOf(1)).isEqualTo(100);
        assertThat(master.endOf(2)).isEqualTo(200);
        assertThat(master.endOf(3)).isEqualTo(Long.MAX_VALUE);
        assertThat(timeline(Long.MAX_VALUE, e(2, 100)).covering(50)).isEqualTo(-1);
    }

    @Test
    void lastEntryEndsAtTheLogEndUnlessTheLogEndsBelowIt() {
        assertThat(timeline(250, e(1, 0), e(2, 200)).endOf(1)).isEqualTo(250);
        assertThat(timeline(150, e(1, 0), e(2, 200)).endOf(1)).as("RocketMQ leaves it unset").isEqualTo(Long.MAX_VALUE);
        assertThat(timeline(250, e(1, 0), e(2, 200)).lastEpoch()).isEqualTo(2);
        assertThat(timeline(0).lastEpoch()).isEqualTo(-1);
        assertThat(timeline(250, e(1, 0), e(2, 200)).indexOf(2)).isEqualTo(1);
        assertThat(timeline(250, e(1, 0), e(2, 200)).indexOf(3)).isEqualTo(-1);
    }
}
