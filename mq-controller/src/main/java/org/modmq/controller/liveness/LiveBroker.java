package org.modmq.controller.liveness;

/**
 * What this controller last heard from one broker.
 *
 * @param brokerAddr             its address
 * @param lastHeartbeatMillis    {@link Ticker} reading when its last heartbeat arrived
 * @param heartbeatTimeoutMillis the timeout it named
 * @param channel                the connection its last heartbeat came on (identity matters only)
 * @param epoch                  the highest epoch it reported
 * @param maxOffset              its max offset at that epoch
 * @param confirmOffset          its confirm offset at that epoch
 * @param electionPriority       its election priority
 */
public record LiveBroker(String brokerAddr, long lastHeartbeatMillis, long heartbeatTimeoutMillis, Object channel,
                         int epoch, long maxOffset, long confirmOffset, int electionPriority) {

    /** @return whether it has been heard from within its timeout at {@code nowMillis} */
    public boolean activeAt(long nowMillis) {
        return nowMillis - lastHeartbeatMillis <= heartbeatTimeoutMillis;
    }
}
