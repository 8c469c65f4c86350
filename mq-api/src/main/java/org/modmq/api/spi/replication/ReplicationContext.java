package org.modmq.api.spi.replication;

import java.util.Objects;
import org.modmq.api.spi.PluginContext;

/**
 * What a replication strategy works with.
 *
 * @param plugin clock, scheduler, allocator, store root
 * @param log the local CommitLog
 * @param progress where a master side reports its replicas' acknowledgements
 */
public record ReplicationContext(PluginContext plugin, ReplicatedLog log, ReplicaProgress progress) {

    public ReplicationContext {
        Objects.requireNonNull(plugin, "plugin");
        Objects.requireNonNull(log, "log");
        Objects.requireNonNull(progress, "progress");
    }
}
