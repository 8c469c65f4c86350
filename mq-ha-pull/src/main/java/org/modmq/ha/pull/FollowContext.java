package org.modmq.ha.pull;

import java.time.Clock;
import java.util.Objects;
import org.modmq.api.spi.replication.ReplicatedLog;

/**
 * What a replica-side session works with. Immutable.
 *
 * @param config the strategy's settings
 * @param log the local CommitLog it appends to
 * @param clock times reports and housekeeping
 * @param events its follower
 * @param target whom it follows and as what
 * @param generation the follower's connection generation
 */
record FollowContext(PullConfig config, ReplicatedLog log, Clock clock, FollowerEvents events, FollowTarget target,
                     long generation) {

    FollowContext {
        Objects.requireNonNull(config, "config");
        Objects.requireNonNull(log, "log");
        Objects.requireNonNull(clock, "clock");
        Objects.requireNonNull(events, "events");
        Objects.requireNonNull(target, "target");
    }
}
