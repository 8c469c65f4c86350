package org.modmq.store.replication;

import org.modmq.api.spi.replication.ReplicationStrategy;

/**
 * The strategy of a store opened without a replication plugin: nothing is served or followed, so a
 * replica of it never receives bytes. Stateless; thread-safe.
 */
public final class LocalOnlyReplication implements ReplicationStrategy {

    @Override
    public String name() {
        return "none";
    }

    @Override
    public void start() {
    }

    @Override
    public void becomeMaster(int epoch) {
    }

    @Override
    public void becomeReplica(int epoch, String masterHaAddress, long brokerId) {
    }

    @Override
    public void appended(long endOffset) {
    }

    @Override
    public void close() {
    }
}
