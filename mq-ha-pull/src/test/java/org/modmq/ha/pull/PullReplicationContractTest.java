package org.modmq.ha.pull;

import org.junit.jupiter.api.Tag;
import org.modmq.api.spi.replication.ReplicationStrategyProvider;
import org.modmq.replication.tck.ReplicationStrategyContractTest;

/** The pull strategy (classic HA and, with epochs, AutoSwitch) runs the replication conformance kit. */
@Tag("integration")
class PullReplicationContractTest extends ReplicationStrategyContractTest {

    @Override
    protected ReplicationStrategyProvider provider() {
        return new PullReplicationStrategyProvider();
    }
}
