package org.modmq.namesrv.route;

/**
 * What a registration did.
 *
 * @param status       whether it was applied
 * @param masterAddr   for a slave: the live master's address, else null
 * @param haServerAddr for a slave: the live master's HA address, else null
 */
public record RegisterOutcome(Status status, String masterAddr, String haServerAddr) {

    /** How a registration ended. */
    public enum Status {
        /** Applied. */
        REGISTERED,
        /** Ignored: another address holds this broker id with a newer state version. */
        STALE_STATE_VERSION,
        /** Refused: a single-topic increment arrived before any full registration of this id. */
        INCREMENT_BEFORE_FULL_REGISTRATION
    }

    static RegisterOutcome of(Status status) {
        return new RegisterOutcome(status, null, null);
    }
}
