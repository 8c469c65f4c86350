package org.modmq.namesrv.route;

import org.modmq.remoting.protocol.body.DataVersion;


/**
 * Liveness of one registered broker.
 *
 * @param lastUpdateMillis when it last registered or sent a heartbeat
 * @param timeoutMillis    silence after which it expires
 * @param dataVersion      the version of the topic table it last registered
 * @param channel          the connection it registered over (opaque to the route table), may be null
 * @param haServerAddr     its HA address
 */
public record BrokerLiveInfo(long lastUpdateMillis, long timeoutMillis, DataVersion dataVersion, Object channel,
                             String haServerAddr) {

    /** A copy refreshed at {@code nowMillis}. */
    public BrokerLiveInfo refreshedAt(long nowMillis) {
        return new BrokerLiveInfo(nowMillis, timeoutMillis, dataVersion, channel, haServerAddr);
    }

    /** Whether it has been silent for longer than its timeout at {@code nowMillis}. */
    public boolean isExpiredAt(long nowMillis) {
        return lastUpdateMillis + timeoutMillis < nowMillis;
    }
}
