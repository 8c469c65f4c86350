package org.modmq.ha.pull;

/**
 * What a replica-side session tells its {@link MasterFollower}; every call names the connection's
 * generation so callbacks of an abandoned connection are ignored. Called on the event loop.
 */
interface FollowerEvents {

    /** The connection is up. */
    void connected(long generation);

    /** A frame was applied: the master is healthy, so the next redial may start short again. */
    void applied(long generation);

    /**
     * Stop following until told again, and say why: the logs diverged in a way only an operator can settle
     * (classic HA), or the log refused replicated writes because the store became master.
     */
    void halt(long generation, String why);
}
