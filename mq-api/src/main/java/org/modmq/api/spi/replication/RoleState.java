package org.modmq.api.spi.replication;

import java.util.Objects;

/**
 * The store's role at one moment. Immutable.
 *
 * @param role master or replica
 * @param epoch the master epoch this role belongs to; 0 in classic (static) replication, where no
 *     epochs are kept
 * @param masterHaAddress a replica's master HA address ({@code host:port}); null on a master and on a
 *     replica that does not know its master yet
 */
public record RoleState(ReplicaRole role, int epoch, String masterHaAddress) {

    public RoleState {
        Objects.requireNonNull(role, "role");
        if (epoch < 0) {
            throw new IllegalArgumentException("epoch " + epoch + " < 0");
        }
        if (role == ReplicaRole.MASTER && masterHaAddress != null) {
            throw new IllegalArgumentException("a master follows no master");
        }
    }

    /** Whether this is the master role. */
    public boolean master() {
        return role == ReplicaRole.MASTER;
    }
}
