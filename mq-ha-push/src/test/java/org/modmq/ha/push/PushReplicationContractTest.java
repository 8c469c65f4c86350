package org.modmq.ha.push;

import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.modmq.api.spi.replication.ReplicationStrategyProvider;
import org.modmq.replication.tck.ReplicationStrategyContractTest;

/** The push strategy runs the replication conformance kit, with short redial delays. */
@Tag("integration")
class PushReplicationContractTest extends ReplicationStrategyContractTest {

    @Override
    protected ReplicationStrategyProvider provider() {
        return new PushReplicationStrategyProvider();
    }

    @Override
    protected Map<String, String> settings() {
        return Map.of("haReconnectMinMillis", "20", "haReconnectMaxMillis", "200");
    }
}
