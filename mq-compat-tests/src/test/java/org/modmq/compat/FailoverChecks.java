package org.modmq.compat;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.modmq.testkit.process.Await;

/**
 * The checks every failover scenario ends with. Read-back: every key the producer got SEND_OK for must be
 * readable from the new master; duplicates (a client retry of a send whose first attempt was stored after
 * all) and stored keys that were never acknowledged are counted and printed, not failed. Rejoin: a former
 * master follows the new one as a replica with the same bytes and epochs. Stateless.
 */
final class FailoverChecks {

    private static final Duration READ_TIMEOUT = Duration.ofSeconds(60);
    static final Duration REJOIN_TIMEOUT = Duration.ofSeconds(60);

    private FailoverChecks() {
    }

    /**
     * Reads the topic back from {@code master} and asserts that no key {@code load} got SEND_OK for is missing.
     *
     * @param scenario names the printed summary line
     */
    static void assertNothingAcknowledgedLost(String scenario, ControllerCluster cluster, String master, String topic,
                                              int queues, KeyedSends load) throws Exception {
        Map<String, KeyedSends.Ack> acknowledged = load.acknowledged();
        QueueReadBack.Stored stored = QueueReadBack.read(cluster.clientApi(), master, topic, queues, READ_TIMEOUT);
        Set<String> keys = acknowledged.keySet();
        List<String> missing = stored.missing(keys);
        long unacknowledged = stored.keys().keySet().stream().filter(k -> load.owns(k) && !keys.contains(k)).count();
        System.out.printf("[failover] %s: %d sent, %d acknowledged, %d rows on %s (queue ends %s), %d duplicates,"
                        + " %d stored but not acknowledged, %d missing; failures %s%n", scenario, load.issued(),
                acknowledged.size(), stored.rows(), master, stored.ends(), stored.duplicates(), unacknowledged,
                missing.size(), load.failures());
        assertThat(missing).as("acknowledged keys not readable from the new master " + master + " (of "
                + acknowledged.size() + " acknowledged)").isEmpty();
    }

    /**
     * With nothing being sent: waits until {@code replica} is registered under an id other than 0 and its
     * CommitLog ends where {@code master}'s does, then asserts that no truncation is pending, the CommitLogs
     * are byte-identical up to that end and the epoch files hold the same entries.
     *
     * @return the replica's broker id at the name server
     */
    static long assertFollowsByteIdentical(ControllerCluster cluster, String replica, String master, int segmentSize) {
        long id = cluster.awaitReplica(replica, REJOIN_TIMEOUT);
        Await.until(replica + " (id " + id + ") at the CommitLog end of " + master, REJOIN_TIMEOUT,
                () -> cluster.commitLogMaxOffset(replica) == cluster.commitLogMaxOffset(master));
        long end = cluster.commitLogMaxOffset(master);
        Path replicaStore = cluster.brokerConf(replica).storeDir();
        Path masterStore = cluster.brokerConf(master).storeDir();
        assertThat(StoreFiles.truncating(replicaStore)).as("truncation marker of " + replica).isFalse();
        assertThat(StoreFiles.firstCommitLogDifference(replicaStore, masterStore, end, segmentSize))
                .as("first CommitLog byte below " + end + " where " + replica + " differs from " + master)
                .isEqualTo(-1L);
        assertThat(StoreFiles.epochEntries(replicaStore)).as("epoch entries of " + replica + " and " + master)
                .isNotEmpty().isEqualTo(StoreFiles.epochEntries(masterStore));
        return id;
    }
}
