package org.modmq.controller.liveness;

import java.util.Objects;

/**
 * One {@code BROKER_HEARTBEAT} (904) as the controller reads it; absent header fields take RocketMQ's
 * defaults ({@code -1}, and the lowest priority).
 *
 * @param key                    who sent it
 * @param brokerAddr             its address
 * @param epoch                  the last epoch in its epoch file
 * @param maxOffset              its CommitLog max physical offset
 * @param confirmOffset          its confirm offset
 * @param heartbeatTimeoutMillis silence after which it counts as gone ({@code heartbeatTimeoutMills})
 * @param electionPriority       smaller is preferred among equal candidates
 */
public record Heartbeat(BrokerKey key, String brokerAddr, int epoch, long maxOffset, long confirmOffset,
                        long heartbeatTimeoutMillis, int electionPriority) {

    public Heartbeat {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(brokerAddr, "brokerAddr");
        if (heartbeatTimeoutMillis <= 0) {
            throw new IllegalArgumentException("heartbeatTimeoutMillis must be positive: " + heartbeatTimeoutMillis);
        }
    }
}
