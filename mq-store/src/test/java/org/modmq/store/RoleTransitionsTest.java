package org.modmq.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.modmq.api.config.ConfigValues;
import org.modmq.api.message.PutStatus;
import org.modmq.api.spi.PluginContext;
import org.modmq.api.spi.replication.EpochEntry;
import org.modmq.api.spi.replication.ReplicaRole;
import org.modmq.api.spi.replication.RoleState;
import org.modmq.store.flush.AsyncFlushPolicyProvider;
import org.modmq.store.recovery.TruncationMarker;
import org.modmq.testkit.ManualClock;
import org.modmq.testkit.NettyLeakCheck;

/** The store's one role state: transitions, fencing, truncation (crash-safe) and the controller-mode confirm offset. */
@Timeout(60)
@ExtendWith(NettyLeakCheck.class)
class RoleTransitionsTest {

    private static final int SEGMENT = 65536;

    @TempDir
    Path root;

    private final ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor();
    private final FileChannelTestBackend backend = new FileChannelTestBackend();
    private final ManualClock clock = new ManualClock(Instant.parse("2024-01-01T10:00:00Z"));
    private final CapturingReplication replication = new CapturingReplication();

    @AfterEach
    void stop() {
        scheduler.shutdownNow();
    }

    private MessageStore open(Path dir, String... keyValues) {
        Map<String, String> map = new HashMap<>(Map.of("mappedFileSizeCommitLog", String.valueOf(SEGMENT),
                "maxHashSlotNum", "64", "maxIndexNum", "100", "syncFlushTimeout", "2000"));
        for (int i = 0; i < keyValues.length; i += 2) {
            map.put(keyValues[i], keyValues[i + 1]);
        }
        ConfigValues values = ConfigValues.of(map);
        return MessageStore.open(StoreConfig.from(values, dir), backend, new AsyncFlushPolicyProvider(), replication,
                new PluginContext(clock, scheduler, ByteBufAllocator.DEFAULT, dir), () -> 0.1);
    }

    private static PutResult put(MessageStore store, String body) throws Exception {
        return store.putMessage(TestMessages.message("T", 0, body)).get(10, TimeUnit.SECONDS);
    }

    /** Copies the master's log from {@code from} to its end into the replica, in 4 KiB chunks. */
    private static void copy(MessageStore master, MessageStore replica, long from) {
        long at = from;
        while (at < master.getCommitLogMaxOffset()) {
            ByteBuf chunk = master.replicatedLog().read(at, 4096);
            try {
                replica.replicatedLog().append(at, chunk);
                at += chunk.readableBytes();
            } finally {
                chunk.release();
            }
        }
    }

    @Test
    void controllerModeStoreStartsAsAReplicaAndTakesWritesOnlyAsMaster() throws Exception {
        try (MessageStore store = open(root, "enableControllerMode", "true")) {
            assertThat(store.role()).isEqualTo(new RoleState(ReplicaRole.REPLICA, 0, null));
            assertThat(put(store, "refused").status()).isEqualTo(PutStatus.SERVICE_NOT_AVAILABLE);
            List<RoleState> seen = new ArrayList<>();
            store.addRoleListener(seen::add);
            store.becomeMaster(3, 1);
            assertThat(put(store, "taken").status()).isEqualTo(PutStatus.PUT_OK);
            assertThat(store.epochs()).containsExactly(new EpochEntry(3, 0));
            long end = store.getCommitLogMaxOffset();
            store.becomeReplica(4, "127.0.0.1:1", 1);
            assertThat(put(store, "refused again").status()).isEqualTo(PutStatus.SERVICE_NOT_AVAILABLE);
            assertThatThrownBy(() -> store.becomeMaster(2, 1)).isInstanceOf(StaleEpochException.class);
            store.becomeMaster(5, 1);
            assertThat(store.epochs()).containsExactly(new EpochEntry(3, 0), new EpochEntry(5, end));
            assertThat(seen).extracting(RoleState::role)
                    .containsExactly(ReplicaRole.MASTER, ReplicaRole.REPLICA, ReplicaRole.MASTER);
        }
        try (MessageStore reopened = open(root, "enableControllerMode", "true")) {
            assertThat(reopened.role()).isEqualTo(new RoleState(ReplicaRole.REPLICA, 5, null));
            assertThat(reopened.epochs()).hasSize(2);
        }
    }

    @Test
    void writesOpenHookRunsOnceTheEpochIsRecordedAndBeforeTheListeners() throws Exception {
        try (MessageStore store = open(root, "enableControllerMode", "true")) {
            List<String> order = new ArrayList<>();
            store.addRoleListener(role -> order.add("listener " + role.role()));
            store.becomeMaster(2, 1, () -> {
                order.add("hook " + store.role() + " " + store.epochs());
                try {
                    order.add("put " + put(store, "in the hook").status());
                } catch (Exception e) {
                    throw new AssertionError(e);
                }
            });
            assertThat(order).containsExactly(
                    "hook " + new RoleState(ReplicaRole.MASTER, 2, null) + " " + List.of(new EpochEntry(2, 0)),
                    "put " + PutStatus.PUT_OK, "listener " + ReplicaRole.MASTER);
            // Already master of epoch 2: the hook runs (the caller re-registers), the listeners are not told again.
            store.becomeMaster(2, 1, () -> order.add("again " + store.role()));
            assertThat(order).hasSize(4).last().isEqualTo("again " + new RoleState(ReplicaRole.MASTER, 2, null));
            assertThat(store.epochs()).containsExactly(new EpochEntry(2, 0));
        }
        try (MessageStore reopened = open(root, "enableControllerMode", "true")) {
            assertThat(reopened.epochs()).containsExactly(new EpochEntry(2, 0));
        }
    }

    @Test
    void replicaRefusesLocalWritesAndMasterRefusesReplicatedOnes() throws Exception {
        try (MessageStore master = open(root.resolve("m"));
             MessageStore replica = open(root.resolve("r"), "brokerRole", "SLAVE")) {
            put(master, "one");
            assertThat(put(replica, "local").status()).isEqualTo(PutStatus.SERVICE_NOT_AVAILABLE);
            copy(master, replica, 0);
            ByteBuf chunk = master.replicatedLog().read(0, 16);
            try {
                assertThatThrownBy(() -> master.replicatedLog().append(master.getCommitLogMaxOffset(), chunk))
                        .isInstanceOf(IllegalStateException.class);
                assertThatThrownBy(() -> master.replicatedLog().truncate(0)).isInstanceOf(IllegalStateException.class);
            } finally {
                chunk.release();
            }
            assertThat(replica.getMaxOffsetInQueue("T", 0)).isEqualTo(1);
        }
    }

    @Test
    void newMasterCutsAPartialRecordAndContinuesTheQueueOffsets() throws Exception {
        try (MessageStore master = open(root.resolve("m"));
             MessageStore replica = open(root.resolve("r"), "brokerRole", "SLAVE")) {
            put(master, "first");
            long whole = master.getCommitLogMaxOffset();
            put(master, "second");
            ByteBuf cut = master.replicatedLog().read(0, (int) whole + 20);
            try {
                replica.replicatedLog().append(0, cut);
            } finally {
                cut.release();
            }
            assertThat(replica.getCommitLogMaxOffset()).isEqualTo(whole + 20);
            replica.becomeMaster(0, 0);
            assertThat(replica.getCommitLogMaxOffset()).isEqualTo(whole);
            PutResult next = put(replica, "after the switch");
            assertThat(next.queueOffset()).isEqualTo(1);
            assertThat(next.commitLogOffset()).isEqualTo(whole);
        }
    }

    @Test
    void truncationCutsLogQueuesAndEpochsAndAnInterruptedOneFinishesAtOpen() throws Exception {
        long keep;
        try (MessageStore store = open(root, "enableControllerMode", "true")) {
            store.becomeMaster(1, 1);
            for (int i = 0; i < 5; i++) {
                put(store, "epoch1-" + i);
            }
            keep = store.getCommitLogMaxOffset();
            store.becomeMaster(2, 1);
            for (int i = 0; i < 5; i++) {
                put(store, "epoch2-" + i);
            }
            store.becomeReplica(3, "127.0.0.1:1", 1);
            store.replicatedLog().truncate(keep);
            assertThat(store.getCommitLogMaxOffset()).isEqualTo(keep);
            assertThat(store.getMaxOffsetInQueue("T", 0)).isEqualTo(5);
            assertThat(store.epochs()).containsExactly(new EpochEntry(1, 0));
            try (QueryMessageResult found = store.queryMessage("T", "UNIQ-epoch2-1", 10, 0, Long.MAX_VALUE)) {
                assertThat(found.messages()).isEmpty();
            }
        }
        // A crash right after the marker was written and before any byte was cut: the next open finishes it.
        long cutTo;
        try (MessageStore store = open(root, "enableControllerMode", "true")) {
            store.becomeMaster(4, 1);
            put(store, "epoch4-a");
            cutTo = store.getCommitLogMaxOffset();
            put(store, "epoch4-b");
            put(store, "epoch4-c");
        }
        new TruncationMarker(root.resolve("truncating")).begin(cutTo);
        try (MessageStore store = open(root, "enableControllerMode", "true")) {
            assertThat(store.getCommitLogMaxOffset()).isEqualTo(cutTo);
            assertThat(store.getMaxOffsetInQueue("T", 0)).isEqualTo(6);
            assertThat(root.resolve("truncating")).doesNotExist();
            assertThat(store.epochs()).containsExactly(new EpochEntry(1, 0), new EpochEntry(4, keep));
        }
    }

    @Test
    void controllerModeConsumersSeeOnlyWhatTheSyncStateSetHolds() throws Exception {
        try (MessageStore store = open(root, "enableControllerMode", "true", "allAckInSyncStateSet", "true")) {
            store.becomeMaster(1, 1);
            store.applySyncStateSet(java.util.Set.of(1L, 2L));
            var put = store.append(List.of(TestMessages.message("T", 0, "held back")), true);
            assertThat(put.stored()).isTrue();
            assertThat(put.replicated()).isNotDone();
            assertThat(store.getMaxOffsetInQueue("T", 0)).isZero();
            replication.context.progress().acknowledged(
                    new org.modmq.api.spi.replication.ReplicaLink("127.0.0.1:5", 2), put.appended().endOffset());
            assertThat(put.acknowledged().get(10, TimeUnit.SECONDS).status()).isEqualTo(PutStatus.PUT_OK);
            assertThat(store.getMaxOffsetInQueue("T", 0)).isEqualTo(1);
            assertThat(store.getConfirmOffset()).isEqualTo(store.getCommitLogMaxOffset());
        }
    }

    @Test
    void aReplicaClosedWithRecordsBeyondItsMastersConfirmOffsetDispatchesThemWhenReopened() throws Exception {
        long firstEnd;
        try (MessageStore master = open(root.resolve("m"))) {
            put(master, "confirmed");
            firstEnd = master.getCommitLogMaxOffset();
            put(master, "replicated, not yet confirmed");
            put(master, "replicated, not yet confirmed either");
            try (MessageStore replica = open(root.resolve("r"), "enableControllerMode", "true")) {
                replica.becomeReplica(1, "127.0.0.1:1", 2);
                copy(master, replica, 0);
                replica.replicatedLog().confirm(firstEnd);
                assertThat(replica.getMaxOffsetInQueue("T", 0)).isEqualTo(1);
            }
        }
        // Reopened, the replica trusts its whole log (RocketMQ's replicas do too): the two records the
        // dispatch held back for the confirm offset must reach the ConsumeQueue rather than leave a gap.
        try (MessageStore reopened = open(root.resolve("r"), "enableControllerMode", "true")) {
            assertThat(reopened.getMaxOffsetInQueue("T", 0)).isEqualTo(3);
            try (GetMessageResult result = reopened.getMessages("T", 0, 1, 8, t -> true, 1 << 20)) {
                assertThat(result.messages()).hasSize(2);
            }
        }
    }

    @Test
    void minInSyncReplicasRefusesSendsBeforeStoringThem() throws Exception {
        try (MessageStore store = open(root, "enableControllerMode", "true", "minInSyncReplicas", "2")) {
            store.becomeMaster(1, 1);
            assertThat(put(store, "too few").status()).isEqualTo(PutStatus.IN_SYNC_REPLICAS_NOT_ENOUGH);
            assertThat(store.getCommitLogMaxOffset()).isZero();
            store.applySyncStateSet(java.util.Set.of(1L, 2L));
            var put = store.append(List.of(TestMessages.message("T", 0, "enough")), true);
            assertThat(put.stored()).isTrue();
        }
    }
}
