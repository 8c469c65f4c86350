package org.modmq.ha.pull;

import java.time.Clock;
import java.util.Objects;
import org.modmq.api.spi.replication.ReplicaProgress;
import org.modmq.api.spi.replication.ReplicatedLog;

/**
 * What a master-side session works with. Immutable.
 *
 * @param config the strategy's settings
 * @param log the local CommitLog it streams from
 * @param progress where it reports acknowledgements and disconnects
 * @param clock times heartbeats and housekeeping
 * @param registry where it signs in and out
 */
record ServingContext(PullConfig config, ReplicatedLog log, ReplicaProgress progress, Clock clock,
                      SessionRegistry registry) {

    ServingContext {
        Objects.requireNonNull(config, "config");
        Objects.requireNonNull(log, "log");
        Objects.requireNonNull(progress, "progress");
        Objects.requireNonNull(clock, "clock");
        Objects.requireNonNull(registry, "registry");
    }
}
