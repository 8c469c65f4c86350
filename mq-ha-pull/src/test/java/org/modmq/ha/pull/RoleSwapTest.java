package org.modmq.ha.pull;

import static org.assertj.core.api.Assertions.assertThat;
import static org.modmq.ha.pull.LogAssertions.assertSameLog;
import static org.modmq.ha.pull.TestStores.await;
import static org.modmq.ha.pull.TestStores.controller;
import static org.modmq.ha.pull.TestStores.message;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.modmq.api.message.PutStatus;
import org.modmq.api.message.StoredMessage;
import org.modmq.api.spi.replication.EpochEntry;
import org.modmq.store.PutResult;
import org.modmq.testkit.NettyLeakCheck;

/**
 * Two controller-mode stores swap master and replica twice while a writer keeps sending to whichever is
 * master; every send waits for both (allAckInSyncStateSet, SyncStateSet of both). Afterwards the logs are
 * byte-identical with the same epochs, and every acknowledged message sits at its acknowledged offset.
 */
@Tag("integration")
@Timeout(120)
@ExtendWith(NettyLeakCheck.class)
class RoleSwapTest {

    private static final Set<Long> BOTH = Set.of(1L, 2L);

    @TempDir
    Path dir;

    private final ScheduledExecutorService scheduler = Executors.newScheduledThreadPool(2);

    @AfterEach
    void stop() {
        scheduler.shutdownNow();
    }

    private HaNode node(String name, long id) {
        return HaNode.open(dir.resolve(name), controller(id).with("allAckInSyncStateSet", "true")
                .with("syncFlushTimeout", "3000"), scheduler);
    }

    @Test
    void swapsRolesTwiceWhileSendsContinueAndLosesNoAcknowledgedMessage() throws Exception {
        try (HaNode a = node("a", 1); HaNode b = node("b", 2)) {
            a.store.becomeMaster(1, 1);
            a.store.applySyncStateSet(BOTH);
            b.store.becomeReplica(1, a.haAddress(), 2);
            AtomicReference<HaNode> master = new AtomicReference<>(a);
            Map<Long, String> acknowledged = new ConcurrentHashMap<>();
            AtomicInteger refused = new AtomicInteger();
            AtomicBoolean stop = new AtomicBoolean();
            Thread writer = new Thread(() -> {
                for (int i = 0; i < 1_000_000 && !stop.get(); i++) {
                    String body = "swap-" + i + "-" + "w".repeat(200 + i % 300);
                    try {
                        PutResult put = master.get().store.putMessage(message("TopicR", i % 4, body))
                                .get(30, TimeUnit.SECONDS);
                        if (put.status() == PutStatus.PUT_OK) {
                            acknowledged.put(put.commitLogOffset(), body);
                        } else {
                            refused.incrementAndGet();
                        }
                    } catch (Exception e) {
                        throw new IllegalStateException(e);
                    }
                }
            }, "swap-writer");
            writer.start();
            try {
                awaitMore(acknowledged, 300);
                b.store.becomeMaster(2, 2);
                b.store.applySyncStateSet(BOTH);
                master.set(b);
                a.store.becomeReplica(2, b.haAddress(), 1);
                awaitMore(acknowledged, 300);
                a.store.becomeMaster(3, 1);
                a.store.applySyncStateSet(BOTH);
                master.set(a);
                b.store.becomeReplica(3, a.haAddress(), 2);
                awaitMore(acknowledged, 300);
            } finally {
                stop.set(true);
                writer.join(TimeUnit.SECONDS.toMillis(60));
            }
            assertThat(writer.isAlive()).isFalse();
            long end = a.store.getCommitLogMaxOffset();
            await("b to catch up with a at " + end, () -> LogAssertions.caughtUp(a.store, b.store, end));
            assertSameLog(a.store, b.store, 0);
            LogAssertions.assertSameQueues(a.store, b.store);
            assertThat(b.store.epochs()).isEqualTo(a.store.epochs());
            assertThat(a.store.epochs()).extracting(EpochEntry::epoch).containsExactly(1, 2, 3);
            for (Map.Entry<Long, String> ack : acknowledged.entrySet()) {
                for (HaNode node : new HaNode[] {a, b}) {
                    Optional<StoredMessage> stored = node.store.lookMessageByOffset(ack.getKey());
                    assertThat(stored).as("acknowledged message at %d", ack.getKey()).isPresent();
                    assertThat(new String(stored.get().message().body(), StandardCharsets.UTF_8))
                            .isEqualTo(ack.getValue());
                }
            }
            assertThat(acknowledged.size()).isGreaterThanOrEqualTo(900);
        }
    }

    private static void awaitMore(Map<Long, String> acknowledged, int more) {
        int target = acknowledged.size() + more;
        await(target + " acknowledged sends", () -> acknowledged.size() >= target);
    }
}
