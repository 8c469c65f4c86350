package org.modmq.api.spi.replication;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * Keeps replicas' CommitLogs byte-identical to the master's. On a master it serves replicas and
 * tracks their acknowledged offsets; on a replica it receives bytes and appends them through
 * {@link ReplicatedLog#append}. Thread-safe.
 */
public interface ReplicationStrategy extends AutoCloseable {

    /** The provider name ({@code pull}, {@code push}). */
    String name();

    /** Starts listening (master) or connecting (replica). Called once. */
    void start();

    /** Master: the log now ends at {@code endOffset}; a push strategy sends at once. */
    void appended(long endOffset);

    /**
     * Master: completes when an in-sync replica holds every byte below {@code offset}. Fails with a
     * {@link org.modmq.api.message.PutStatusException} of {@code FLUSH_SLAVE_TIMEOUT} after
     * {@code timeout}, or of {@code SLAVE_NOT_AVAILABLE} at once when no replica is in sync.
     */
    CompletableFuture<Void> awaitReplicated(long offset, Duration timeout);

    /** Master: the replicas now connected. */
    List<ReplicaState> replicas();

    /** Replica: the master's HA address ({@code host:port}) to follow from now on; null to stop. */
    void followMaster(String haAddress);

    /** Stops threads and connections. Idempotent. */
    @Override
    void close();
}
