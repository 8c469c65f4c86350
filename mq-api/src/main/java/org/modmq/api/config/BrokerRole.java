package org.modmq.api.config;

/** {@code brokerRole}: how a broker takes part in replication. */
public enum BrokerRole {
    /** Answers a send only when an in-sync slave holds the message. */
    SYNC_MASTER,
    /** Answers at once; slaves follow. */
    ASYNC_MASTER,
    /** Replicates from its master and refuses sends. */
    SLAVE;

    public boolean isMaster() {
        return this != SLAVE;
    }
}
