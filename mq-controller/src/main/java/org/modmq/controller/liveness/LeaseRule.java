package org.modmq.controller.liveness;

/**
 * When the controller leader may treat a master as gone and elect another one.
 *
 * <p>A modmq master holds a lease: each heartbeat the Raft leader answers with {@code isLeader=true}
 * keeps it master until its send time plus its {@code heartbeatTimeoutMills} (minus a margin). So the
 * leader elects because of inactivity only when both hold:
 * <ol>
 * <li>the master is inactive here: its connection closed, or {@code heartbeatTimeoutMills} passed since
 *     its last heartbeat arrived (a heartbeat arrives after it was sent, so the lease it renewed has
 *     ended by then);</li>
 * <li>this peer has led for at least {@code heartbeatTimeoutMills} plus the Raft election timeout max: a
 *     new leader does not know which leases the previous one granted; that one stops granting within the
 *     election timeout max of losing its majority, and the last lease it granted ends one timeout
 *     later.</li>
 * </ol>
 * For a master this peer never heard from, the timeout is {@code defaultHeartbeatTimeoutMillis}.
 * Stateless and thread-safe.
 */
public final class LeaseRule {

    private final long defaultHeartbeatTimeoutMillis;
    private final long electionTimeoutMaxMillis;

    /**
     * @param defaultHeartbeatTimeoutMillis the timeout of a broker not heard from ({@code brokerHeartbeatTimeoutMills})
     * @param electionTimeoutMaxMillis      the Raft election timeout max
     */
    public LeaseRule(long defaultHeartbeatTimeoutMillis, long electionTimeoutMaxMillis) {
        if (defaultHeartbeatTimeoutMillis <= 0 || electionTimeoutMaxMillis <= 0) {
            throw new IllegalArgumentException("timeouts must be positive: " + defaultHeartbeatTimeoutMillis + ", "
                    + electionTimeoutMaxMillis);
        }
        this.defaultHeartbeatTimeoutMillis = defaultHeartbeatTimeoutMillis;
        this.electionTimeoutMaxMillis = electionTimeoutMaxMillis;
    }

    /**
     * @param master           what this peer last heard from the master, or null (never, or its connection closed)
     * @param leaderSinceMillis {@link Ticker} reading when this peer became leader
     * @param nowMillis        the current reading
     * @return whether the master's lease has certainly ended
     */
    public boolean leaseEnded(LiveBroker master, long leaderSinceMillis, long nowMillis) {
        return nowMillis >= endOfLease(master, leaderSinceMillis);
    }

    /**
     * @return the earliest {@link Ticker} reading at which {@link #leaseEnded} can hold without a new
     *     heartbeat: the later of the end of the leader's own window and the master's timeout
     */
    public long endOfLease(LiveBroker master, long leaderSinceMillis) {
        long timeout = master == null ? defaultHeartbeatTimeoutMillis : master.heartbeatTimeoutMillis();
        long leaderWindowEnd = leaderSinceMillis + timeout + electionTimeoutMaxMillis;
        long silenceEnd = master == null ? Long.MIN_VALUE : master.lastHeartbeatMillis() + master.heartbeatTimeoutMillis() + 1;
        return Math.max(leaderWindowEnd, silenceEnd);
    }
}
