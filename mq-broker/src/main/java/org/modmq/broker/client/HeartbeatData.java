package org.modmq.broker.client;

import java.util.Set;
import org.modmq.remoting.protocol.Json;

/**
 * Body of HEART_BEAT (34), JSON shape of RocketMQ's {@code HeartbeatData}; parsed leniently (unknown
 * properties ignored, missing sets empty). Immutable.
 *
 * @param clientID {@code clientIP@instanceName}
 * @param producerDataSet producer groups of the client
 * @param consumerDataSet consumer groups of the client
 * @param heartbeatFingerprint non-zero only for heartbeat V2
 * @param withoutSub heartbeat V2: subscriptions left out because they did not change
 */
public record HeartbeatData(String clientID, Set<ProducerData> producerDataSet, Set<ConsumerData> consumerDataSet,
                            int heartbeatFingerprint, boolean withoutSub) {

    public HeartbeatData {
        producerDataSet = producerDataSet == null ? Set.of() : Set.copyOf(producerDataSet);
        consumerDataSet = consumerDataSet == null ? Set.of() : Set.copyOf(consumerDataSet);
    }

    /**
     * Parses a HEART_BEAT body.
     *
     * @throws org.modmq.remoting.protocol.JsonBodyException when it is not a HeartbeatData JSON object
     */
    public static HeartbeatData parse(byte[] body) {
        HeartbeatData data = Json.decode(body, HeartbeatData.class);
        if (data == null || data.clientID() == null || data.clientID().isBlank()) {
            throw new org.modmq.remoting.protocol.JsonBodyException("heartbeat without clientID", null);
        }
        return data;
    }
}
