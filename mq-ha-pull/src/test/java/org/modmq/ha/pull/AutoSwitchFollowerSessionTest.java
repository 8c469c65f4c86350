package org.modmq.ha.pull;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.modmq.api.config.ConfigValues;
import org.modmq.api.spi.replication.EpochEntry;
import org.modmq.testkit.ManualClock;
import org.modmq.testkit.NettyLeakCheck;

/** The replica's AutoSwitch session on an embedded channel with a manual clock and an in-memory log. */
@ExtendWith(NettyLeakCheck.class)
class AutoSwitchFollowerSessionTest {

    private static final PullConfig CONFIG = PullConfig.from(ConfigValues.of(Map.of("enableControllerMode", "true",
            "haSendHeartbeatInterval", "1000", "haHousekeepingInterval", "3000")));
    private static final String HANDSHAKE_AS_5 = "00000001" + "0000" + "0000" + "0000000000000005";
    /** max offset 400, last epoch 2, entries 1-0 and 2-300. */
    private static final String ANSWER = "00000001 00000018 0000000000000190 00000002"
            + "00000001 0000000000000000 00000002 000000000000012C";

    private final ManualClock clock = new ManualClock(1_000_000);
    private final List<String> events = new ArrayList<>();
    private EmbeddedLink link;

    private EmbeddedLink open(MemoryLog log, int roleEpoch) {
        FollowerEvents recorder = new FollowerEvents() {
            @Override
            public void connected(long generation) {
                events.add("connected");
            }

            @Override
            public void applied(long generation) {
                events.add("applied");
            }

            @Override
            public void halt(long generation, String why) {
                events.add("halt");
            }
        };
        FollowTarget target = new FollowTarget(new PullConfig.HostPort("127.0.0.1", 1), roleEpoch, 5);
        link = new EmbeddedLink(clock, new AutoSwitchMasterDecoder(),
                new AutoSwitchFollowerSession(new FollowContext(CONFIG, log, clock, recorder, target, 1)));
        return link.connect();
    }

    private AutoSwitchFollowerSession session() {
        return link.channel.pipeline().get(AutoSwitchFollowerSession.class);
    }

    @AfterEach
    void close() {
        if (link != null) {
            link.close();
        }
    }

    private static String transfer(int size, long offset, int epoch, long start, long confirm) {
        return String.format("%08X%08X%016X%08X%016X%016X", 2, size, offset, epoch, start, confirm)
                + "00".repeat(size);
    }

    private static String report(long offset) {
        return String.format("00000002%016X", offset);
    }

    @Test
    void handshakesCutsTheDivergedTailReportsAndApplies() {
        MemoryLog log = MemoryLog.holding(1024, 0, 500, new EpochEntry(1, 0));
        EmbeddedLink link = open(log, 2);
        assertThat(link.out()).isEqualTo(HANDSHAKE_AS_5);
        assertThat(session().state()).isEqualTo(AutoSwitchState.HANDSHAKE);
        link.in(ANSWER);
        assertThat(session().state()).isEqualTo(AutoSwitchState.TRANSFER);
        assertThat(log.journal()).as("the master's epoch starting at the cut is recorded at once")
                .containsExactly("truncate 300", "startEpoch 2-300");
        assertThat(link.out()).isEqualTo(report(300));
        link.in(transfer(10, 300, 2, 300, 305));
        assertThat(log.journal()).containsExactly("truncate 300", "startEpoch 2-300", "append 300+10", "confirm 305");
        assertThat(link.out()).isEqualTo(report(310));
        link.in(transfer(0, 310, 2, 300, 310));
        assertThat(link.out()).as("a heartbeat that grew nothing is not answered").isEmpty();
        assertThat(log.journal()).endsWith("confirm 310");
        assertThat(events).containsExactly("connected", "applied");
    }

    @Test
    void reportsAfterTheHeartbeatIntervalAndClosesWhenTheMasterIsSilent() {
        MemoryLog log = MemoryLog.holding(1024, 0, 300, new EpochEntry(1, 0), new EpochEntry(2, 300));
        EmbeddedLink link = open(log, 2);
        link.in(ANSWER);
        assertThat(link.out()).isEqualTo(HANDSHAKE_AS_5 + report(300));
        link.elapse(900);
        assertThat(link.out()).isEmpty();
        link.elapse(100);
        assertThat(link.out()).isEqualTo(report(300));
        link.elapse(1_900);
        assertThat(link.open()).isTrue();
        link.elapse(100);
        assertThat(link.open()).as("nothing read for 3 000 ms").isFalse();
        assertThat(log.journal()).isEmpty();
    }

    @Test
    void aStaleMasterIsRefusedWithoutCuttingAnything() {
        MemoryLog log = MemoryLog.holding(1024, 0, 500, new EpochEntry(1, 0), new EpochEntry(3, 400));
        EmbeddedLink link = open(log, 3);
        link.out();
        link.in(ANSWER);
        assertThat(link.open()).isFalse();
        assertThat(link.out()).as("no report").isEmpty();
        assertThat(log.journal()).isEmpty();
        assertThat(events).containsExactly("connected");
    }

    @Test
    void framesOutOfOrderAreRefused() {
        MemoryLog log = MemoryLog.holding(1024, 0, 300, new EpochEntry(1, 0));
        EmbeddedLink link = open(log, 2);
        link.in(transfer(10, 300, 2, 300, 0));
        assertThat(link.open()).isFalse();
        assertThat(log.journal()).isEmpty();
    }

    @Test
    void suspendsQuietlyWhenTheStoreBecameMaster() {
        MemoryLog log = MemoryLog.holding(1024, 0, 300, new EpochEntry(1, 0));
        EmbeddedLink link = open(log, 2);
        link.in(ANSWER);
        link.out();
        log.master(true);
        AutoSwitchFollowerSession session = session();
        link.in(transfer(10, 300, 2, 300, 0));
        assertThat(link.open()).isFalse();
        assertThat(session.state()).isEqualTo(AutoSwitchState.SHUTDOWN);
        assertThat(events).containsExactly("connected", "halt");
        assertThat(log.maxOffset()).isEqualTo(300);
    }
}
