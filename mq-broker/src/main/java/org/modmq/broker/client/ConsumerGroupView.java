package org.modmq.broker.client;

import java.util.List;
import java.util.Map;

/**
 * A consistent snapshot of one consumer group's live clients and subscriptions. Immutable.
 *
 * @param groupName the group
 * @param consumeType from the latest heartbeat
 * @param messageModel from the latest heartbeat
 * @param consumeFromWhere from the latest heartbeat
 * @param channels live connections, ordered by client id
 * @param subscriptions topic → subscription
 */
public record ConsumerGroupView(String groupName, String consumeType, String messageModel, String consumeFromWhere,
                                List<ClientChannelInfo> channels, Map<String, SubscriptionData> subscriptions) {

    public ConsumerGroupView {
        channels = List.copyOf(channels);
        subscriptions = Map.copyOf(subscriptions);
    }

    /** Client ids of the live connections, sorted, without duplicates. */
    public List<String> clientIds() {
        return channels.stream().map(ClientChannelInfo::clientId).distinct().sorted().toList();
    }

    public boolean isBroadcasting() {
        return ConsumerData.BROADCASTING.equals(messageModel);
    }
}
