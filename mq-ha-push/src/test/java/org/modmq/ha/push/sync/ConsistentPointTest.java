package org.modmq.ha.push.sync;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.modmq.api.spi.replication.EpochEntry;

/** RocketMQ's findConsistentPoint: newest common epoch with equal start, cut at the smaller end. */
class ConsistentPointTest {

    private static EpochEntry e(int epoch, long start) {
        return new EpochEntry(epoch, start);
    }

    @Test
    void sameHistoryAgreesUpToTheShorterLog() {
        List<EpochEntry> history = List.of(e(1, 0), e(2, 100));
        assertThat(ConsistentPoint.find(history, 300, history, 500)).isEqualTo(300);
        assertThat(ConsistentPoint.find(history, 500, history, 300)).isEqualTo(300);
    }

    @Test
    void anOldMastersUnreplicatedTailIsCutWhereTheNewEpochStarts() {
        assertThat(ConsistentPoint.find(List.of(e(1, 0)), 500, List.of(e(1, 0), e(2, 300)), 800)).isEqualTo(300);
    }

    @Test
    void aReplicaBehindTheBoundaryKeepsEverything() {
        assertThat(ConsistentPoint.find(List.of(e(1, 0)), 100, List.of(e(1, 0), e(2, 300)), 800)).isEqualTo(100);
    }

    @Test
    void anEpochOnlyOneSideHadIsSkipped() {
        assertThat(ConsistentPoint.find(List.of(e(1, 0), e(3, 400)), 600, List.of(e(1, 0), e(2, 300)), 800))
                .isEqualTo(300);
    }

    @Test
    void theSameEpochWithAnotherStartIsNotCommon() {
        assertThat(ConsistentPoint.find(List.of(e(1, 0), e(2, 350)), 500, List.of(e(1, 0), e(2, 300)), 800))
                .isEqualTo(300);
    }

    @Test
    void historiesWithoutCommonEpochHaveNoPoint() {
        assertThat(ConsistentPoint.find(List.of(e(2, 100)), 200, List.of(e(1, 0), e(3, 200)), 400))
                .isEqualTo(ConsistentPoint.NONE);
        assertThat(ConsistentPoint.find(List.of(), 200, List.of(e(1, 0)), 400)).isEqualTo(ConsistentPoint.NONE);
        assertThat(ConsistentPoint.find(List.of(e(1, 0)), 200, List.of(), 400)).isEqualTo(ConsistentPoint.NONE);
    }

    @Test
    void entriesDroppedByRetentionDoNotMatter() {
        assertThat(ConsistentPoint.find(List.of(e(2, 300)), 900, List.of(e(2, 300), e(3, 800)), 1000)).isEqualTo(800);
    }

    @Test
    void neverAboveEitherEnd() {
        // a last entry starting beyond its log's end is open-ended in RocketMQ; the point still stays within both logs
        assertThat(ConsistentPoint.find(List.of(e(1, 0), e(2, 700)), 600, List.of(e(1, 0), e(2, 700)), 650))
                .isEqualTo(600);
    }

    @Test
    void lastEpochOfAHistory() {
        assertThat(ConsistentPoint.lastEpoch(List.of())).isZero();
        assertThat(ConsistentPoint.lastEpoch(List.of(e(1, 0), e(4, 10)))).isEqualTo(4);
    }
}
