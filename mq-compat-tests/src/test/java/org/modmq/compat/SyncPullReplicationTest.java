package org.modmq.compat;

import org.junit.jupiter.api.Tag;

/** {@link ReplicationScenarios} with SYNC_MASTER masters and the pull replication strategy ({@code haStrategy=pull}). */
@Tag("integration")
class SyncPullReplicationTest extends ReplicationScenarios {

    @Override
    String masterRole() {
        return "SYNC_MASTER";
    }

    @Override
    String haStrategy() {
        return "pull";
    }
}
