package org.modmq.controller.liveness;

import java.util.OptionalLong;

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
 * The timeout of the second rule is the longest one the master named in a heartbeat to this peer
 * (brokers send their heartbeats to every peer, so a follower hears the timeout the leader granted
 * leases for), also after its connection closed; for a master this peer never heard from it is
 * {@code defaultHeartbeatTimeoutMillis}. Stateless and thread-safe.
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
     * @param master            what this peer last heard from the master, or null (never, or its connection closed)
     * @param declaredTimeout   the longest timeout the master ever named to this peer, empty when never heard
     * @param leaderSinceMillis {@link Ticker} reading when this peer became leader
     * @param nowMillis         the current reading
     * @return whether the master's lease has certainly ended
     */
    public boolean leaseEnded(LiveBroker master, OptionalLong declaredTimeout, long leaderSinceMillis, long nowMillis) {
        return nowMillis >= endOfLease(master, declaredTimeout, leaderSinceMillis);
    }

    /**
     * @return the earliest {@link Ticker} reading at which {@link #leaseEnded} can hold without a new
     *     heartbeat: the later of the end of the leader's own window and the master's timeout
     */
    public long endOfLease(LiveBroker master, OptionalLong declaredTimeout, long leaderSinceMillis) {
        long timeout = master != null ? Math.max(master.heartbeatTimeoutMillis(), declaredTimeout.orElse(0))
                : declaredTimeout.orElse(defaultHeartbeatTimeoutMillis);
        long leaderWindowEnd = leaderSinceMillis + timeout + electionTimeoutMaxMillis;
        long silenceEnd = master == null ? Long.MIN_VALUE : master.lastHeartbeatMillis() + master.heartbeatTimeoutMillis() + 1;
        return Math.max(leaderWindowEnd, silenceEnd);
    }
}
