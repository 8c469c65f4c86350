package org.modmq.ha.pull;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.modmq.api.config.ConfigValues;
import org.modmq.api.spi.replication.EpochEntry;
import org.modmq.testkit.ManualClock;
import org.modmq.testkit.NettyLeakCheck;

/** The master's AutoSwitch session on an embedded channel with a manual clock and an in-memory log. */
@ExtendWith(NettyLeakCheck.class)
class AutoSwitchSlaveSessionTest {

    private static final PullConfig CONFIG = PullConfig.from(ConfigValues.of(Map.of("enableControllerMode", "true",
            "haTransferBatchSize", "64", "mappedFileSizeCommitLog", "128", "haSendHeartbeatInterval", "1000",
            "haHousekeepingInterval", "3000")));

    private final MemoryLog log = MemoryLog.holding(128, 0, 300, new EpochEntry(1, 0), new EpochEntry(2, 100));
    private final RecordingProgress progress = new RecordingProgress();
    private final ManualClock clock = new ManualClock(1_000_000);
    private boolean served = true;
    private EmbeddedLink link;

    private EmbeddedLink open(MemoryLog source) {
        source.master(true);
        SessionRegistry registry = new SessionRegistry() {
            @Override
            public boolean register(ServedSession session, long generation) {
                return served;
            }

            @Override
            public void unregister(ServedSession session) {
            }

            @Override
            public void acknowledged() {
            }
        };
        link = new EmbeddedLink(clock, new AutoSwitchSlaveDecoder(), new AutoSwitchSlaveSession(
                new ServingContext(CONFIG, source, progress, clock, registry), 1));
        return link;
    }

    @AfterEach
    void close() {
        if (link != null) {
            link.close();
        }
    }

    private static String header(int state, int size, long offset, int epoch, long start, long confirm) {
        return String.format("%08X%08X%016X%08X%016X%016X", state, size, offset, epoch, start, confirm);
    }

    private static String bytes(long from, long to) {
        StringBuilder hex = new StringBuilder();
        for (long at = from; at < to; at++) {
            hex.append(String.format("%02X", at & 0xFF));
        }
        return hex.toString();
    }

    @Test
    void answersTheHandshakeThenStreamsBatchesThatStayInsideTheirEpochAndFile() {
        EmbeddedLink link = open(log).connect();
        link.in("00000001 0000 0000 0000000000000007");
        assertThat(link.channel.pipeline().get(AutoSwitchSlaveSession.class).state())
                .as("answered, waiting for the first report").isEqualTo(AutoSwitchState.HANDSHAKE);
        assertThat(link.out()).isEqualTo("00000001" + "00000018" + "000000000000012C" + "00000002"
                + "00000001" + "0000000000000000" + "00000002" + "0000000000000064");
        log.masterConfirm(200);
        link.in("00000002 0000000000000000");
        assertThat(link.out()).isEqualTo(
                header(2, 64, 0, 1, 0, 200) + bytes(0, 64)
                + header(2, 36, 64, 1, 0, 200) + bytes(64, 100)
                + header(2, 28, 100, 2, 100, 200) + bytes(100, 128)
                + header(2, 64, 128, 2, 100, 200) + bytes(128, 192)
                + header(2, 64, 192, 2, 100, 200) + bytes(192, 256)
                + header(2, 44, 256, 2, 100, 200) + bytes(256, 300));
        assertThat(progress.events()).containsExactly("ack 7 0");
        assertThat(link.channel.pipeline().get(AutoSwitchSlaveSession.class).state())
                .isEqualTo(AutoSwitchState.TRANSFER);

        log.masterConfirm(300);
        link.in("00000002 000000000000012C");
        assertThat(link.out()).as("the risen confirm offset goes out at once").isEqualTo(header(2, 0, 300, 2, 100, 300));
        log.write(10);
        link.channel.pipeline().get(AutoSwitchSlaveSession.class).wake();
        link.channel.runPendingTasks();
        assertThat(link.out()).isEqualTo(header(2, 10, 300, 2, 100, 300) + bytes(300, 310));
        assertThat(progress.events()).containsExactly("ack 7 0", "ack 7 300");
    }

    @Test
    void heartbeatsAfterTheIntervalAndClosesASilentReplica() {
        EmbeddedLink link = open(log).connect();
        link.in("00000001 0000 0000 0000000000000007");
        link.in("00000002 000000000000012C");
        link.out();
        link.elapse(900);
        assertThat(link.out()).isEmpty();
        link.elapse(100);
        assertThat(link.out()).isEqualTo(header(2, 0, 300, 2, 100, 300));
        link.elapse(1_900);
        assertThat(link.open()).isTrue();
        link.elapse(100);
        assertThat(link.open()).as("nothing read for 3 000 ms").isFalse();
        assertThat(progress.events()).containsExactly("ack 7 300", "gone 7");
    }

    @Test
    void startsAnEmptyReplicaAtTheLastFileWhenItAsks() {
        EmbeddedLink link = open(log).connect();
        link.in("00000001 0001 0000 0000000000000007");
        link.out();
        link.in("00000002 0000000000000000");
        assertThat(link.out()).startsWith(header(2, 44, 256, 2, 100, 300));
    }

    @Test
    void anAsyncLearnerIsAcknowledgedWithoutItsId() {
        EmbeddedLink link = open(log).connect();
        link.in("00000001 0000 0001 0000000000000007");
        link.in("00000002 0000000000000064");
        assertThat(progress.events()).containsExactly("ack -1 100");
    }

    @Test
    void refusesAReportBeforeTheHandshake() {
        EmbeddedLink link = open(log).connect();
        link.in("00000002 0000000000000000");
        assertThat(link.open()).isFalse();
        assertThat(link.out()).isEmpty();
        assertThat(progress.events()).isEmpty();
    }

    @Test
    void refusesAFirstReportBeyondTheLogOrBelowWhatItHolds() {
        EmbeddedLink beyond = open(log).connect();
        beyond.in("00000001 0000 0000 0000000000000007");
        beyond.in("00000002 000000000000012D");
        assertThat(beyond.open()).isFalse();
        beyond.close();
        MemoryLog later = MemoryLog.holding(128, 128, 100, new EpochEntry(1, 0));
        EmbeddedLink below = open(later).connect();
        below.in("00000001 0000 0000 0000000000000007");
        below.in("00000002 0000000000000040");
        assertThat(below.open()).isFalse();
        assertThat(progress.events()).isEmpty();
    }

    @Test
    void refusesAHandshakeDuringTheTransferAndMalformedFrames() {
        EmbeddedLink again = open(log).connect();
        again.in("00000001 0000 0000 0000000000000007");
        again.in("00000002 000000000000012C");
        again.in("00000001 0000 0000 0000000000000007");
        assertThat(again.open()).isFalse();
        again.close();
        EmbeddedLink garbage = open(log).connect();
        garbage.in("0000000A 0000000000000000");
        assertThat(garbage.open()).isFalse();
        assertThat(progress.events()).containsExactly("ack 7 300", "gone 7");
    }

    @Test
    void closesAConnectionAcceptedForARoleThatHasEnded() {
        served = false;
        EmbeddedLink link = open(log).connect();
        assertThat(link.open()).isFalse();
    }
}
