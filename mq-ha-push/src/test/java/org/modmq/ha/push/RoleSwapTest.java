package org.modmq.ha.push;

import static org.assertj.core.api.Assertions.assertThat;
import static org.modmq.ha.push.HaFixture.WAIT;
import static org.modmq.ha.push.HaFixture.assertSameLogsAndQueues;
import static org.modmq.ha.push.HaFixture.await;
import static org.modmq.ha.push.HaFixture.awaitCaughtUp;
import static org.modmq.ha.push.HaFixture.message;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.modmq.api.message.PutStatus;
import org.modmq.api.message.StoredMessage;
import org.modmq.api.spi.replication.EpochEntry;
import org.modmq.api.spi.replication.ReplicaRole;
import org.modmq.ha.push.HaFixture.Node;
import org.modmq.store.PutResult;

/**
 * Two controller-mode stores swap roles twice at runtime while a producer keeps sending to whichever is
 * master, with allAckInSyncStateSet and both in the SyncStateSet: every acknowledged message survives,
 * and the logs end byte-identical.
 */
@Tag("integration")
@Timeout(120)
class RoleSwapTest {

    private static final int PER_PHASE = 150;

    @TempDir
    Path root;

    @RegisterExtension
    final HaFixture fixture = new HaFixture();

    private Node node(String name, long brokerId) {
        return fixture.open(root.resolve(name), "enableControllerMode", "true", "brokerId", String.valueOf(brokerId),
                "allAckInSyncStateSet", "true", "syncFlushTimeout", "15000");
    }

    @Test
    void rolesSwapTwiceWhileSendsContinueAndNoAcknowledgedMessageIsLost() throws Exception {
        try (Node a = node("a", 1); Node b = node("b", 2)) {
            a.store().becomeMaster(1, 1);
            a.store().applySyncStateSet(Set.of(1L, 2L));
            b.store().becomeReplica(1, a.haAddress(), 2);
            await(() -> a.store().replicas().size() == 1, WAIT, "b to follow a");

            AtomicReference<Node> current = new AtomicReference<>(a);
            Map<Long, String> acknowledged = new ConcurrentHashMap<>();
            AtomicInteger refused = new AtomicInteger();
            AtomicBoolean stop = new AtomicBoolean();
            ExecutorService producer = Executors.newSingleThreadExecutor();
            try {
                Future<?> sending = producer.submit(() -> {
                    for (int i = 0; i < 1_000_000 && !stop.get(); i++) {
                        String body = "swap-" + i + "-" + "z".repeat(200 + i % 50);
                        PutResult result = current.get().store().putMessage(message("Swap", i % 2, body))
                                .get(30, TimeUnit.SECONDS);
                        if (result.status() == PutStatus.PUT_OK) {
                            acknowledged.put(result.commitLogOffset(), body);
                        } else {
                            refused.incrementAndGet();
                        }
                    }
                    return null;
                });
                awaitAcknowledged(acknowledged, PER_PHASE);
                swap(a, b, 2, current);
                awaitAcknowledged(acknowledged, 2 * PER_PHASE);
                swap(b, a, 3, current);
                awaitAcknowledged(acknowledged, 3 * PER_PHASE);
                stop.set(true);
                sending.get(60, TimeUnit.SECONDS);
            } finally {
                stop.set(true);
                producer.shutdownNow();
            }

            assertThat(a.store().role().role()).isEqualTo(ReplicaRole.MASTER);
            awaitCaughtUp(a, b);
            assertSameLogsAndQueues(a, b);
            assertThat(a.store().epochs()).extracting(EpochEntry::epoch).containsExactly(1, 2, 3);
            for (Map.Entry<Long, String> sent : acknowledged.entrySet()) {
                StoredMessage stored = a.store().lookMessageByOffset(sent.getKey()).orElseThrow(
                        () -> new AssertionError("acknowledged message at " + sent.getKey() + " is gone"));
                assertThat(new String(stored.message().body(), StandardCharsets.UTF_8)).isEqualTo(sent.getValue());
            }
            assertThat(acknowledged).hasSizeGreaterThanOrEqualTo(3 * PER_PHASE);
        }
    }

    /** The old master steps down, the replica takes over in {@code epoch}, then the producer moves to it. */
    private static void swap(Node from, Node to, int epoch, AtomicReference<Node> current) throws Exception {
        from.store().becomeReplica(epoch, to.haAddress(), brokerId(from));
        to.store().becomeMaster(epoch, brokerId(to));
        to.store().applySyncStateSet(Set.of(1L, 2L));
        current.set(to);
        await(() -> to.store().replicas().size() == 1, WAIT, "the old master to follow the new one in epoch " + epoch);
    }

    private static long brokerId(Node node) {
        return node.root().endsWith("a") ? 1 : 2;
    }

    private static void awaitAcknowledged(Map<Long, String> acknowledged, int count) throws InterruptedException {
        await(() -> acknowledged.size() >= count, WAIT.multipliedBy(2), count + " acknowledged sends");
    }
}
