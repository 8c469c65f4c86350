package org.modmq.store;

import org.modmq.api.config.PluginConfig;
import org.modmq.api.spi.replication.ReplicationContext;
import org.modmq.api.spi.replication.ReplicationStrategy;
import org.modmq.api.spi.replication.ReplicationStrategyProvider;
import org.modmq.store.replication.LocalOnlyReplication;

/** A replication provider for store tests: its strategy does nothing, and the test gets the context to report acknowledgements. */
final class CapturingReplication implements ReplicationStrategyProvider {

    volatile ReplicationContext context;

    @Override
    public String name() {
        return "capturing";
    }

    @Override
    public ReplicationStrategy create(PluginConfig config, ReplicationContext context) {
        this.context = context;
        return new LocalOnlyReplication();
    }
}
