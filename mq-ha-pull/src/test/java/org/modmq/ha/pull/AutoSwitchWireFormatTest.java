package org.modmq.ha.pull;

import static org.assertj.core.api.Assertions.assertThat;
import static org.modmq.ha.pull.TestStores.SEGMENT;
import static org.modmq.ha.pull.TestStores.await;
import static org.modmq.ha.pull.TestStores.bytes;
import static org.modmq.ha.pull.TestStores.controller;
import static org.modmq.ha.pull.TestStores.putMany;

import java.nio.file.Path;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.modmq.api.config.ConfigValues;
import org.modmq.api.spi.replication.EpochEntry;
import org.modmq.api.spi.replication.ReplicaLink;
import org.modmq.testkit.NettyLeakCheck;

/** A raw socket plays an AutoSwitch replica against a real controller-mode master, byte by byte. */
@Tag("integration")
@Timeout(60)
@ExtendWith(NettyLeakCheck.class)
class AutoSwitchWireFormatTest {

    @TempDir
    Path dir;

    private final ScheduledExecutorService scheduler = Executors.newScheduledThreadPool(2);

    @AfterEach
    void stop() {
        scheduler.shutdownNow();
    }

    /** A master of epochs 1, 2 and 3 whose bytes span several CommitLog files. */
    private HaNode masterOfThreeEpochs(ConfigValues values) throws Exception {
        HaNode master = HaNode.open(dir.resolve("master"), values, scheduler);
        master.store.becomeMaster(1, 1);
        putMany(master.store, "e1-", 700, 1_000);
        master.store.becomeMaster(2, 1);
        putMany(master.store, "e2-", 900, 1_000);
        master.store.becomeMaster(3, 1);
        putMany(master.store, "e3-", 700, 1_000);
        return master;
    }

    @Test
    void handshakeAnswerCarriesTheMaxOffsetAndTheWholeEpochHistory() throws Exception {
        try (HaNode master = masterOfThreeEpochs(controller(1));
             RawAutoSwitchReplica replica = new RawAutoSwitchReplica(master.strategy.listenAddress())) {
            RawAutoSwitchReplica.Answer answer = replica.handshake(false, false, 2).readAnswer();
            assertThat(answer.state()).isEqualTo(1);
            assertThat(answer.bodySize()).isEqualTo(3 * 12);
            assertThat(answer.maxOffset()).isEqualTo(master.store.getCommitLogMaxOffset());
            assertThat(answer.lastEpoch()).isEqualTo(3);
            assertThat(answer.entries()).isEqualTo(master.store.epochs());
        }
    }

    @Test
    void streamsFromTheFirstFileLabellingEachBodyWithItsEpochAndNeverCrossingOne() throws Exception {
        try (HaNode master = masterOfThreeEpochs(controller(1).with("haSendHeartbeatInterval", "300"));
             RawAutoSwitchReplica replica = new RawAutoSwitchReplica(master.strategy.listenAddress())) {
            List<EpochEntry> epochs = master.store.epochs();
            long end = master.store.getCommitLogMaxOffset();
            assertThat(end).isGreaterThan(2L * SEGMENT);
            replica.handshake(false, false, 2).readAnswer();
            replica.report(0);
            long at = 0;
            int frames = 0;
            while (at < end) {
                RawAutoSwitchReplica.Frame frame = replica.readFrame();
                assertThat(frame.state()).isEqualTo(2);
                assertThat(frame.offset()).isEqualTo(at);
                if (frame.body().length == 0) {
                    continue;
                }
                EpochEntry holder = holder(epochs, at);
                long epochEnd = next(epochs, holder);
                assertThat(frame.epoch()).as("frame at %d", at).isEqualTo(holder.epoch());
                assertThat(frame.epochStart()).isEqualTo(holder.startOffset());
                assertThat(frame.body().length).isLessThanOrEqualTo(PullConfig.DEFAULT_BATCH);
                assertThat(at + frame.body().length).as("within the epoch").isLessThanOrEqualTo(epochEnd)
                        .as("within the file").isLessThanOrEqualTo(at - at % SEGMENT + SEGMENT);
                assertThat(frame.confirm()).isBetween(0L, end);
                assertThat(frame.body()).isEqualTo(bytes(master.log(), at, at + frame.body().length));
                at += frame.body().length;
                frames++;
                replica.report(at);
            }
            assertThat(frames).as("batches of at most haTransferBatchSize")
                    .isGreaterThanOrEqualTo((int) (end / PullConfig.DEFAULT_BATCH));
            RawAutoSwitchReplica.Frame heartbeat = replica.readFrame();
            assertThat(heartbeat.body()).isEmpty();
            assertThat(heartbeat.offset()).isEqualTo(end);
            assertThat(heartbeat.epoch()).isEqualTo(3);
            assertThat(heartbeat.epochStart()).isEqualTo(epochs.get(2).startOffset());
            assertThat(heartbeat.confirm()).isEqualTo(end);
            await("the master to record the acknowledgement", () -> master.store.replicas().size() == 1
                    && master.store.replicas().get(0).ackedOffset() == end);
            assertThat(master.store.replicas().get(0).brokerId()).isEqualTo(2);
        }
    }

    @Test
    void syncFromLastFileStartsAnEmptyReplicaAtTheLastFile() throws Exception {
        try (HaNode master = masterOfThreeEpochs(controller(1));
             RawAutoSwitchReplica replica = new RawAutoSwitchReplica(master.strategy.listenAddress())) {
            long end = master.store.getCommitLogMaxOffset();
            replica.handshake(true, false, 2).readAnswer();
            replica.report(0);
            RawAutoSwitchReplica.Frame first = replica.readFrame();
            assertThat(first.offset()).isEqualTo(end - end % SEGMENT);
            assertThat(first.epoch()).isEqualTo(3);
        }
    }

    @Test
    void anAsyncLearnerIsReportedWithoutABrokerId() throws Exception {
        try (HaNode master = masterOfThreeEpochs(controller(1));
             RawAutoSwitchReplica replica = new RawAutoSwitchReplica(master.strategy.listenAddress())) {
            replica.handshake(false, true, 2).readAnswer();
            replica.report(100);
            await("the learner's report", () -> !master.store.replicas().isEmpty());
            assertThat(master.store.replicas().get(0).brokerId()).isEqualTo(ReplicaLink.UNKNOWN_ID);
        }
    }

    @Test
    void malformedOrOutOfOrderFramesCloseOnlyTheirConnection() throws Exception {
        try (HaNode master = masterOfThreeEpochs(controller(1))) {
            long end = master.store.getCommitLogMaxOffset();
            List<byte[]> bad = List.of(hex("00000007 0000000000000000"), hex("00000002 0000000000000000"),
                    hex("00000001 0002 0000 0000000000000002"), hex("00000000 0000000000000000 00000000"));
            for (byte[] bytes : bad) {
                try (RawAutoSwitchReplica raw = new RawAutoSwitchReplica(master.strategy.listenAddress())) {
                    raw.raw(bytes);
                    assertThat(raw.closedWithin(10_000)).as(HexFormat.of().formatHex(bytes)).isTrue();
                }
            }
            try (RawAutoSwitchReplica beyond = new RawAutoSwitchReplica(master.strategy.listenAddress())) {
                beyond.handshake(false, false, 5).readAnswer();
                beyond.report(end + 1);
                assertThat(beyond.closedWithin(10_000)).as("a replica ahead of the master").isTrue();
            }
            try (RawAutoSwitchReplica again = new RawAutoSwitchReplica(master.strategy.listenAddress())) {
                again.handshake(false, false, 5).readAnswer();
                again.report(end);
                again.handshake(false, false, 5);
                assertThat(again.closedWithin(10_000)).as("a handshake during the transfer").isTrue();
            }
            assertThat(master.store.getCommitLogMaxOffset()).isEqualTo(end);
            try (HaNode replica = HaNode.open(dir.resolve("replica"), controller(2), scheduler)) {
                replica.store.becomeReplica(3, master.haAddress(), 2);
                await("a well-behaved replica to catch up after the bad ones",
                        () -> LogAssertions.caughtUp(master.store, replica.store, end));
                await("only it to count", () -> master.store.replicas().stream()
                        .allMatch(state -> state.brokerId() == 2 && state.ackedOffset() == end));
            }
        }
    }

    private static byte[] hex(String spaced) {
        return HexFormat.of().parseHex(spaced.replace(" ", ""));
    }

    private static EpochEntry holder(List<EpochEntry> epochs, long offset) {
        EpochEntry found = null;
        for (EpochEntry entry : epochs) {
            if (entry.startOffset() <= offset) {
                found = entry;
            }
        }
        return found;
    }

    private static long next(List<EpochEntry> epochs, EpochEntry holder) {
        int index = epochs.indexOf(holder);
        return index == epochs.size() - 1 ? Long.MAX_VALUE : epochs.get(index + 1).startOffset();
    }
}
