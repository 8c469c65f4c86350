package org.modmq.ha.push.sync;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.zip.CRC32;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.modmq.api.spi.replication.EpochEntry;
import org.modmq.ha.push.wire.Hello;
import org.modmq.ha.push.wire.Refusal;
import org.modmq.ha.push.wire.Welcome;
import org.modmq.testkit.NettyLeakCheck;

/** The master's answer to a HELLO, and the replica's check of it. */
@ExtendWith(NettyLeakCheck.class)
class HandshakeTest {

    private static EpochEntry e(int epoch, long start) {
        return new EpochEntry(epoch, start);
    }

    private static Hello classic(long min, long end, byte[] tail) {
        CRC32 crc = new CRC32();
        crc.update(tail);
        return new Hello(1, 0, min, end, tail.length, (int) crc.getValue(), List.of());
    }

    private static Hello withEpochs(int epoch, long min, long end, List<EpochEntry> epochs) {
        return new Hello(1, epoch, min, end, 0, 0, epochs);
    }

    private static byte[] tailOf(long min, long end, int length) {
        byte[] all = ArrayLog.pattern(min, (int) (end - min));
        byte[] tail = new byte[length];
        System.arraycopy(all, all.length - length, tail, 0, length);
        return tail;
    }

    /** The master's answer; it must be one the replica that sent {@code hello} accepts. */
    private static Welcome accepted(Hello hello, int servingEpoch, ArrayLog master) {
        Handshake.Answer answer = Handshake.answer(hello, servingEpoch, master);
        assertThat(answer.accepted()).as(answer.detail()).isTrue();
        assertThat(Handshake.problem(hello, answer.welcome())).isNull();
        return answer.welcome();
    }

    private static Handshake.Answer refused(Hello hello, int servingEpoch, ArrayLog master, Refusal reason) {
        Handshake.Answer answer = Handshake.answer(hello, servingEpoch, master);
        assertThat(answer.accepted()).isFalse();
        assertThat(answer.refusal()).isEqualTo(reason);
        return answer;
    }

    @Test
    void classicReplicaContinuesAtItsEndWhenItsTailMatches() {
        ArrayLog master = new ArrayLog(0, ArrayLog.pattern(0, 10_000), List.of());
        Welcome welcome = accepted(classic(0, 6_000, tailOf(0, 6_000, 4096)), 0, master);
        assertThat(welcome.truncateOffset()).isEqualTo(6_000);
        assertThat(welcome.startOffset()).isEqualTo(6_000);
        assertThat(welcome.maxOffset()).isEqualTo(10_000);
        assertThat(welcome.epoch()).isZero();
        assertThat(welcome.epochs()).isEmpty();
    }

    @Test
    void classicReplicaWithOtherBytesOrMoreBytesDiverged() {
        ArrayLog master = new ArrayLog(0, ArrayLog.pattern(0, 10_000), List.of());
        byte[] other = tailOf(0, 6_000, 4096);
        other[100] ^= 1;
        assertThat(refused(classic(0, 6_000, other), 0, master, Refusal.DIVERGED).detail()).contains("differ");
        assertThat(refused(classic(0, 12_000, new byte[0]), 0, master, Refusal.DIVERGED).detail())
                .contains("beyond the master's end");
    }

    @Test
    void anEmptyReplicaStartsAtTheMastersFirstSegment() {
        ArrayLog master = new ArrayLog(1 << 20, ArrayLog.pattern(1 << 20, 5_000), List.of());
        Welcome welcome = accepted(classic(0, 0, new byte[0]), 0, master);
        assertThat(welcome.truncateOffset()).isZero();
        assertThat(welcome.startOffset()).isEqualTo(1 << 20);
    }

    @Test
    void aReplicaNeedingBytesTheMasterDroppedIsAGap() {
        ArrayLog master = new ArrayLog(1 << 20, ArrayLog.pattern(1 << 20, 5_000), List.of());
        refused(classic(0, 500, new byte[0]), 0, master, Refusal.GAP);
    }

    @Test
    void aMasterOlderThanTheReplicaIsStale() {
        ArrayLog master = new ArrayLog(0, ArrayLog.pattern(0, 1_000), List.of(e(1, 0)));
        assertThat(refused(withEpochs(2, 0, 0, List.of()), 1, master, Refusal.STALE_MASTER).detail())
                .contains("epoch 1 is older than the replica's epoch 2");
        refused(withEpochs(0, 0, 500, List.of(e(1, 0), e(2, 400))), 1, master, Refusal.STALE_MASTER);
    }

    @Test
    void aClassicMasterWithAnOldHistoryIsNotStale() {
        ArrayLog master = new ArrayLog(0, ArrayLog.pattern(0, 1_000), List.of(e(1, 0), e(3, 200)));
        Welcome welcome = accepted(withEpochs(0, 0, 600, List.of(e(1, 0), e(3, 200))), 0, master);
        assertThat(welcome.epoch()).isEqualTo(3);
        assertThat(welcome.truncateOffset()).isEqualTo(600);
    }

    @Test
    void aDivergedReplicaIsCutAtTheConsistentPoint() {
        ArrayLog master = new ArrayLog(0, ArrayLog.pattern(0, 8_000), List.of(e(1, 0), e(2, 3_000)));
        Welcome welcome = accepted(withEpochs(2, 0, 5_000, List.of(e(1, 0))), 2, master);
        assertThat(welcome.truncateOffset()).isEqualTo(3_000);
        assertThat(welcome.startOffset()).isEqualTo(3_000);
        assertThat(welcome.epoch()).isEqualTo(2);
        assertThat(welcome.epochs()).containsExactly(e(1, 0), e(2, 3_000));
    }

    @Test
    void historiesWithoutCommonEpochDiverged() {
        ArrayLog master = new ArrayLog(0, ArrayLog.pattern(0, 8_000), List.of(e(1, 0), e(3, 3_000)));
        assertThat(refused(withEpochs(3, 0, 5_000, List.of(e(2, 0))), 3, master, Refusal.DIVERGED).detail())
                .contains("no epoch in common");
    }

    @Test
    void aCutBelowTheReplicasFirstByteEmptiesItAndStreamsFromTheMastersStart() {
        ArrayLog master = new ArrayLog(0, ArrayLog.pattern(0, 8_000), List.of(e(1, 0), e(2, 1_000)));
        Welcome welcome = accepted(withEpochs(2, 4_096, 5_000, List.of(e(1, 0))), 2, master);
        assertThat(welcome.truncateOffset()).isEqualTo(1_000);
        assertThat(welcome.startOffset()).isZero();
    }

    @Test
    void theReplicaRefusesAnAnswerThatDoesNotFitWhatItSaid() {
        Hello hello = withEpochs(2, 0, 5_000, List.of(e(1, 0)));
        List<EpochEntry> masterEpochs = List.of(e(1, 0), e(2, 3_000));
        assertThat(Handshake.problem(hello, new Welcome(8_000, 2, 0, 3_000, 3_000, masterEpochs))).isNull();
        assertThat(Handshake.problem(hello, new Welcome(8_000, 2, 0, 1_000, 1_000, masterEpochs)))
                .contains("consistent point is 3000");
        assertThat(Handshake.problem(hello, new Welcome(8_000, 1, 0, 3_000, 3_000, masterEpochs)))
                .contains("older");
        assertThat(Handshake.problem(hello, new Welcome(8_000, 2, 0, 3_000, 2_000, masterEpochs)))
                .contains("does not continue");
        assertThat(Handshake.problem(hello, new Welcome(8_000, 3, 0, 0, 0, List.of(e(3, 0)))))
                .contains("no epoch in common");
        Hello classic = classic(0, 600, new byte[0]);
        assertThat(Handshake.problem(classic, new Welcome(900, 0, 0, 500, 500, List.of())))
                .as("a classic replica is never cut").contains("consistent point is 600");
    }
}
