package org.modmq.api.spi.replication;

import java.util.Objects;
import org.modmq.api.config.BrokerRole;
import org.modmq.api.spi.PluginContext;

/**
 * What a replication strategy works with.
 *
 * @param plugin clock, scheduler, allocator, store root
 * @param role this broker's role
 * @param log the local CommitLog
 */
public record ReplicationContext(PluginContext plugin, BrokerRole role, ReplicatedLog log) {

    public ReplicationContext {
        Objects.requireNonNull(plugin, "plugin");
        Objects.requireNonNull(role, "role");
        Objects.requireNonNull(log, "log");
    }
}
