package org.modmq.broker.client;

import java.util.Objects;
import java.util.Set;

/**
 * The consumer part of a heartbeat for one group. Enum-valued fields are kept as their names so that
 * an unknown value from a newer client does not reject the heartbeat. Immutable.
 *
 * @param groupName consumer group
 * @param consumeType CONSUME_PASSIVELY (push), CONSUME_ACTIVELY (pull), CONSUME_POP
 * @param messageModel CLUSTERING or BROADCASTING
 * @param consumeFromWhere CONSUME_FROM_LAST_OFFSET, CONSUME_FROM_FIRST_OFFSET, CONSUME_FROM_TIMESTAMP, ...
 * @param subscriptionDataSet the group's subscriptions as this client sees them
 * @param unitMode legacy unit flag
 */
public record ConsumerData(String groupName, String consumeType, String messageModel, String consumeFromWhere,
                           Set<SubscriptionData> subscriptionDataSet, boolean unitMode) {

    public static final String BROADCASTING = "BROADCASTING";

    public ConsumerData {
        Objects.requireNonNull(groupName, "groupName");
        subscriptionDataSet = subscriptionDataSet == null ? Set.of() : Set.copyOf(subscriptionDataSet);
    }

    public boolean isBroadcasting() {
        return BROADCASTING.equals(messageModel);
    }
}
