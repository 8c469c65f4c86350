package org.modmq.store.replication;

import java.time.Duration;
import java.util.Objects;
import org.modmq.api.config.BrokerRole;
import org.modmq.api.config.ConfigException;
import org.modmq.api.config.ConfigValues;

/**
 * What a master's synchronous send waits for, parsed from {@code broker.conf} keys (RocketMQ's names).
 * Immutable.
 *
 * @param mode how acknowledgements count
 * @param timeout {@code syncFlushTimeout}: how long a send waits before FLUSH_SLAVE_TIMEOUT (default 5 s)
 * @param fallBehindMax {@code haSlaveFallbehindMax}: classic mode, the best replica further behind than
 *     this many bytes makes a send answer SLAVE_NOT_AVAILABLE at once (default 256 MiB)
 * @param allAckInSyncStateSet {@code allAckInSyncStateSet}: controller mode, every SyncStateSet member
 *     must hold a send (default false)
 * @param minInSyncReplicas {@code minInSyncReplicas}: controller mode, a SyncStateSet smaller than this
 *     (the master counts) refuses sends with IN_SYNC_REPLICAS_NOT_ENOUGH (default 1)
 * @param inSyncReplicas {@code inSyncReplicas}: controller mode without all-ack, how many SyncStateSet
 *     members (the master counts) must hold a send (default 1: the master alone)
 * @param maxTimeNotCaughtUp {@code haMaxTimeSlaveNotCatchup}: a member that has not caught up for this
 *     long may be shrunk out of the SyncStateSet (default 15 s)
 */
public record ReplicationPolicy(Mode mode, Duration timeout, long fallBehindMax, boolean allAckInSyncStateSet,
                                int minInSyncReplicas, int inSyncReplicas, Duration maxTimeNotCaughtUp) {

    /** How acknowledgements count. */
    public enum Mode {
        /** An ASYNC_MASTER in classic replication: sends never wait. */
        NONE,
        /** A SYNC_MASTER in classic replication: any connected replica within the fall-behind limit. */
        ANY_REPLICA,
        /** Controller mode: the SyncStateSet decides ({@code allAckInSyncStateSet}, {@code inSyncReplicas}). */
        SYNC_STATE_SET
    }

    public ReplicationPolicy {
        Objects.requireNonNull(mode, "mode");
        Objects.requireNonNull(timeout, "timeout");
        Objects.requireNonNull(maxTimeNotCaughtUp, "maxTimeNotCaughtUp");
    }

    /** Whether the SyncStateSet (controller mode) governs acknowledgements and the confirm offset. */
    public boolean controllerMode() {
        return mode == Mode.SYNC_STATE_SET;
    }

    /** Parses the keys above; {@code enableControllerMode=true} selects {@link Mode#SYNC_STATE_SET}. */
    public static ReplicationPolicy from(ConfigValues values) {
        Mode mode;
        if (values.bool("enableControllerMode", false)) {
            mode = Mode.SYNC_STATE_SET;
        } else {
            String role = values.string("brokerRole", BrokerRole.ASYNC_MASTER.name());
            mode = BrokerRole.SYNC_MASTER.name().equals(role) ? Mode.ANY_REPLICA : Mode.NONE;
        }
        int min = values.intValue("minInSyncReplicas", 1);
        int need = values.intValue("inSyncReplicas", 1);
        if (min < 1 || need < 1) {
            throw new ConfigException("minInSyncReplicas=" + min + " and inSyncReplicas=" + need
                    + " must be at least 1");
        }
        return new ReplicationPolicy(mode, Duration.ofMillis(values.longValue("syncFlushTimeout", 5_000)),
                values.longValue("haSlaveFallbehindMax", 256L * 1024 * 1024),
                values.bool("allAckInSyncStateSet", false), min, need,
                Duration.ofMillis(values.longValue("haMaxTimeSlaveNotCatchup", 15_000)));
    }
}
