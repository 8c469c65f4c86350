package org.modmq.api.spi.replication;

/** What a store is in its broker set right now. The store owns the value; see {@link RoleState}. */
public enum ReplicaRole {
    /** Takes local writes and serves replicas. */
    MASTER,
    /** Refuses local writes and follows a master (or waits to be told which). */
    REPLICA
}
