package org.modmq.ha.pull;

import java.util.Objects;
import org.modmq.ha.pull.PullConfig.HostPort;

/**
 * Whom a replica follows and as what. Immutable.
 *
 * @param address the master's HA address
 * @param epoch the epoch the store is a replica in (0 in classic HA); an AutoSwitch master whose last epoch
 *     is older is not followed
 * @param brokerId this broker's id, sent in the AutoSwitch handshake
 */
record FollowTarget(HostPort address, int epoch, long brokerId) {

    FollowTarget {
        Objects.requireNonNull(address, "address");
    }
}
