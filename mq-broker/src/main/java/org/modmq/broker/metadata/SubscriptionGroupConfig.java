package org.modmq.broker.metadata;

import java.util.Map;
import java.util.Objects;

/**
 * A consumer group's settings, JSON shape of RocketMQ's {@code SubscriptionGroupConfig}. Immutable;
 * {@link #defaults(String)} gives RocketMQ's defaults.
 */
public record SubscriptionGroupConfig(String groupName, boolean consumeEnable, boolean consumeFromMinEnable,
                                      boolean consumeBroadcastEnable, boolean consumeMessageOrderly,
                                      int retryQueueNums, int retryMaxTimes, Map<String, Object> groupRetryPolicy,
                                      long brokerId, long whichBrokerWhenConsumeSlowly,
                                      boolean notifyConsumerIdsChangedEnable, int groupSysFlag,
                                      int consumeTimeoutMinute, Map<String, String> attributes) {

    public SubscriptionGroupConfig {
        Objects.requireNonNull(groupName, "groupName");
        groupRetryPolicy = groupRetryPolicy == null ? Map.of("type", "CUSTOMIZED") : Map.copyOf(groupRetryPolicy);
        attributes = attributes == null ? Map.of() : Map.copyOf(attributes);
    }

    public static SubscriptionGroupConfig defaults(String groupName) {
        return new SubscriptionGroupConfig(groupName, true, true, true, false, 1, 16, null, 0, 1, true, 0, 15, null);
    }
}
