package org.modmq.replication.tck;

/**
 * The cases of the replication contract, by name. A strategy that knowingly deviates from one declares it
 * with a reason ({@link ReplicationContractFixture#deviations()}); the case is then reported as aborted
 * with that reason instead of failing, so the deviation stays visible in every test report.
 */
public enum ContractCase {
    /** An empty replica copies the master's log byte for byte, including bytes written during the copy. */
    CATCH_UP_FROM_EMPTY,
    /** A replica holding a prefix of the log continues from its end: no truncation, no second copy. */
    CATCH_UP_FROM_BEHIND,
    /** The master reports each replica's acknowledgements; they match the replica's log. */
    PROGRESS_MATCHES_REPLICAS,
    /** A synchronous send completes only once a replica holds its bytes, never without one. */
    REPLICATED_ONLY_WHEN_HELD,
    /** Roles swap with a new epoch; a replica ahead of the new epoch's start is cut back to it. */
    ROLE_SWAP_TRUNCATES_DIVERGED_TAIL,
    /** A replica of a newer epoch never takes bytes from a master of an older one. */
    STALE_MASTER_NOT_FOLLOWED,
    /** A replica reconnects on its own once a restarted master listens again. */
    RECONNECT_AFTER_MASTER_RESTART,
    /** close() is idempotent and frees the HA port at once. */
    CLOSE_RELEASES_PORT,
    /** start() on a port already taken fails with an UncheckedIOException naming the address. */
    TAKEN_PORT_FAILS_START,
    /** Garbage on the master's HA port leaves the master serving its real replicas. */
    GARBAGE_INPUT_LEAVES_MASTER_SERVING,
    /** A master address that is not host:port is refused with a ConfigException. */
    MALFORMED_MASTER_ADDRESS_REFUSED
}
