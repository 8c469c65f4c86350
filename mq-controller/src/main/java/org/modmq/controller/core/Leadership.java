package org.modmq.controller.core;

/**
 * What this controller peer knows about the Raft leadership at one moment.
 *
 * @param leader            whether this peer is the Raft leader
 * @param serving           whether it is the leader and has applied every entry of earlier terms
 *                          (a barrier of its own term), so its state is complete
 * @param quorum            whether, as leader, it heard from a majority of the peers (itself included)
 *                          within the Raft election timeout min; false on followers
 * @param leaderId          the leader's peer id, or null when none is known
 * @param leaderSinceMillis {@link org.modmq.controller.liveness.Ticker} reading when this peer became
 *                          leader (meaningless unless {@code leader})
 */
public record Leadership(boolean leader, boolean serving, boolean quorum, String leaderId, long leaderSinceMillis) {

    /** Nobody is known to lead. */
    public static final Leadership NONE = new Leadership(false, false, false, null, 0);

    /** @return whether this peer may decide and propose writes now */
    public boolean mayWrite() {
        return serving && quorum;
    }
}
