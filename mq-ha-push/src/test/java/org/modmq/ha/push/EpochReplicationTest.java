package org.modmq.ha.push;

import static org.assertj.core.api.Assertions.assertThat;
import static org.modmq.ha.push.HaFixture.WAIT;
import static org.modmq.ha.push.HaFixture.assertSameLogsAndQueues;
import static org.modmq.ha.push.HaFixture.await;
import static org.modmq.ha.push.HaFixture.awaitCaughtUp;
import static org.modmq.ha.push.HaFixture.burst;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.modmq.api.spi.replication.EpochEntry;
import org.modmq.ha.push.HaFixture.Node;
import org.modmq.ha.push.sync.EpochSpan;
import org.modmq.ha.push.wire.PushFrameLayout;
import org.modmq.ha.push.wire.Welcome;

/** Controller-mode stores: epochs travel with the bytes and a diverged tail is cut at the consistent point. */
@Tag("integration")
@Timeout(90)
class EpochReplicationTest {

    @TempDir
    Path root;

    @RegisterExtension
    final HaFixture fixture = new HaFixture();

    private Node node(String name, long brokerId) {
        return fixture.open(root.resolve(name), "enableControllerMode", "true", "brokerId", String.valueOf(brokerId));
    }

    @Test
    void replicasCatchUpAcrossSeveralEpochs() throws Exception {
        try (Node a = node("a", 1); Node b = node("b", 2); Node c = node("c", 3)) {
            a.store().becomeMaster(1, 1);
            b.store().becomeReplica(1, a.haAddress(), 2);
            burst(a.store(), 80, 700, "epoch1");
            awaitCaughtUp(a, b);
            b.store().becomeReplica(1, null, 2);
            await(() -> a.store().replicas().isEmpty(), WAIT, "b to stop following");
            burst(a.store(), 40, 700, "epoch1-late");
            int[] epochs = {2, 3, 5};
            for (int epoch : epochs) {
                a.store().becomeMaster(epoch, 1);
                burst(a.store(), 60, 900, "epoch" + epoch);
            }
            assertThat(a.store().epochs()).extracting(EpochEntry::epoch).containsExactly(1, 2, 3, 5);

            b.store().becomeReplica(5, a.haAddress(), 2);
            c.store().becomeReplica(5, a.haAddress(), 3);
            awaitCaughtUp(a, b);
            awaitCaughtUp(a, c);
            assertSameLogsAndQueues(a, b);
            assertSameLogsAndQueues(a, c);
        }
    }

    @Test
    void dataFramesNeverCrossAnEpochBoundary() throws Exception {
        try (Node a = node("a", 1)) {
            for (int epoch = 1; epoch <= 3; epoch++) {
                a.store().becomeMaster(epoch, 1);
                burst(a.store(), 30, 600, "e" + epoch);
            }
            long end = a.store().getCommitLogMaxOffset();
            List<EpochEntry> history = a.store().epochs();
            try (RawReplica raw = new RawReplica(a.haSocket())) {
                raw.hello(9, 3, List.of());
                Welcome welcome = raw.welcome();
                assertThat(welcome.epoch()).isEqualTo(3);
                assertThat(welcome.epochs()).isEqualTo(history);
                assertThat(welcome.startOffset()).isZero();
                List<Integer> seen = new ArrayList<>();
                long at = 0;
                while (at < end) {
                    RawReplica.Frame frame = raw.next();
                    if (frame.type() != PushFrameLayout.DATA) {
                        continue;
                    }
                    assertThat(frame.offset()).isEqualTo(at);
                    EpochSpan span = EpochSpan.at(history, at);
                    assertThat(frame.dataEpoch()).isEqualTo(span.epoch());
                    assertThat(frame.dataEpochStart()).isEqualTo(span.start());
                    assertThat(at + frame.payloadLength()).as("frame end within epoch " + span.epoch())
                            .isLessThanOrEqualTo(span.end());
                    seen.add(frame.dataEpoch());
                    at += frame.payloadLength();
                }
                assertThat(seen).containsSubsequence(1, 2, 3).isSorted();
            }
        }
    }
}
