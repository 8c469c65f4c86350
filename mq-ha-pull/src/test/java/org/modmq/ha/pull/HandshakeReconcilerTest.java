package org.modmq.ha.pull;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.modmq.api.spi.replication.EpochEntry;

/** A replica's reconciliation with its master's handshake, on an in-memory log. */
class HandshakeReconcilerTest {

    private static final int SEGMENT = 1024;

    private static EpochEntry e(int epoch, long start) {
        return new EpochEntry(epoch, start);
    }

    private static MasterFrame.Handshake master(long max, EpochEntry... entries) {
        return new MasterFrame.Handshake(max, entries.length == 0 ? -1 : entries[entries.length - 1].epoch(),
                List.of(entries));
    }

    @Test
    void aDivergedTailIsCutWhereTheNewMastersEpochStarts() throws Exception {
        MemoryLog log = MemoryLog.holding(SEGMENT, 0, 500, e(1, 0));
        long report = HandshakeReconciler.reconcile(log, master(400, e(1, 0), e(2, 300)), 2, "m");
        assertThat(report).isEqualTo(300);
        assertThat(log.maxOffset()).isEqualTo(300);
        assertThat(log.journal()).containsExactly("truncate 300");
        assertThat(log.epochs()).containsExactly(e(1, 0));
    }

    @Test
    void anEpochThisLogRecordedButTheMasterNeverSawIsDroppedEvenWithoutBytes() throws Exception {
        MemoryLog log = MemoryLog.holding(SEGMENT, 0, 100, e(1, 0), e(2, 100));
        assertThat(HandshakeReconciler.reconcile(log, master(200, e(1, 0), e(3, 100)), 3, "m")).isEqualTo(100);
        assertThat(log.journal()).containsExactly("truncate 100");
        assertThat(log.epochs()).containsExactly(e(1, 0));
    }

    @Test
    void aReplicaThatIsBehindKeepsEverything() throws Exception {
        MemoryLog log = MemoryLog.holding(SEGMENT, 0, 150, e(1, 0), e(2, 100));
        assertThat(HandshakeReconciler.reconcile(log, master(400, e(1, 0), e(2, 100), e(3, 300)), 3, "m"))
                .isEqualTo(150);
        assertThat(log.journal()).isEmpty();
    }

    @Test
    void aStaleMasterIsRefusedBeforeAnythingIsCut() {
        MemoryLog log = MemoryLog.holding(SEGMENT, 0, 500, e(1, 0), e(3, 300));
        assertThatThrownBy(() -> HandshakeReconciler.reconcile(log, master(400, e(1, 0), e(2, 300)), 3, "m"))
                .isInstanceOf(RefusalException.class).hasMessageContaining("stale");
        assertThatThrownBy(() -> HandshakeReconciler.reconcile(new MemoryLog(SEGMENT), master(0), 0, "m"))
                .as("a master without epochs").isInstanceOf(RefusalException.class);
        assertThat(log.journal()).isEmpty();
    }

    @Test
    void aMasterWhoseHistoryEndsBelowTheFollowedEpochIsFollowed() throws Exception {
        // A RocketMQ master elected where its last epoch starts cannot record the new epoch (its epoch file
        // takes only entries starting above the last one) and labels its new bytes with the old epoch: a
        // master of controller epoch 5 that answers a history ending in epoch 3.
        MemoryLog behind = MemoryLog.holding(SEGMENT, 0, 300, e(1, 0));
        assertThat(HandshakeReconciler.reconcile(behind, master(400, e(1, 0), e(3, 300)), 5, "m")).isEqualTo(300);
        assertThat(behind.journal()).isEmpty();
        MemoryLog level = MemoryLog.holding(SEGMENT, 0, 350, e(1, 0), e(3, 300));
        assertThat(HandshakeReconciler.reconcile(level, master(400, e(1, 0), e(3, 300)), 5, "m")).isEqualTo(350);
        assertThat(level.journal()).isEmpty();
    }

    @Test
    void aLaterEpochThisLogHoldsNoBytesOfDoesNotMakeTheMasterStale() throws Exception {
        // A modmq master recorded epoch 5 where epoch 3 starts (no bytes in 3); the RocketMQ broker elected
        // next holds 3 as its last epoch.
        MemoryLog log = MemoryLog.holding(SEGMENT, 0, 300, e(1, 0), e(3, 300), e(5, 300));
        assertThat(HandshakeReconciler.reconcile(log, master(400, e(1, 0), e(3, 300)), 7, "m")).isEqualTo(300);
        assertThat(log.journal()).containsExactly("truncate 300");
    }

    @Test
    void aNewReplicaCutsNothing() throws Exception {
        MemoryLog log = new MemoryLog(SEGMENT);
        assertThat(HandshakeReconciler.reconcile(log, master(4000, e(1, 0), e(2, 3000)), 2, "m")).isZero();
        MemoryLog classic = MemoryLog.holding(SEGMENT, 0, 100);
        assertThat(HandshakeReconciler.reconcile(classic, master(4000, e(1, 0)), 1, "m"))
                .as("a log without epochs is trusted, as RocketMQ does").isEqualTo(100);
        assertThat(log.journal()).isEmpty();
        assertThat(classic.journal()).isEmpty();
    }

    @Test
    void withoutACommonEpochTheWholeLogGoes() throws Exception {
        MemoryLog log = MemoryLog.holding(SEGMENT, 1024, 100, e(2, 1024));
        assertThat(HandshakeReconciler.reconcile(log, master(4000, e(1, 0), e(3, 50)), 3, "m")).isZero();
        assertThat(log.journal()).containsExactly("truncate 1024");
        assertThat(log.epochs()).isEmpty();
        assertThat(log.maxOffset()).isZero();
    }

    @Test
    void aLogThatBecameMastersRefusesTheCut() {
        MemoryLog log = MemoryLog.holding(SEGMENT, 0, 500, e(1, 0));
        log.master(true);
        assertThatThrownBy(() -> HandshakeReconciler.reconcile(log, master(400, e(1, 0), e(2, 300)), 2, "m"))
                .isInstanceOf(IllegalStateException.class);
        assertThat(log.maxOffset()).isEqualTo(500);
    }
}
