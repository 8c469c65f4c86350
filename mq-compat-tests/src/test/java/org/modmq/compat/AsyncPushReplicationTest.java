package org.modmq.compat;

import org.junit.jupiter.api.Tag;

/** {@link ReplicationScenarios} with ASYNC_MASTER masters and the push replication strategy ({@code haStrategy=push}). */
@Tag("integration")
class AsyncPushReplicationTest extends ReplicationScenarios {

    @Override
    String masterRole() {
        return "ASYNC_MASTER";
    }

    @Override
    String haStrategy() {
        return "push";
    }
}
