package org.modmq.broker.client;

/**
 * Told when a consumer group's member set or subscriptions changed (the broker then sends
 * NOTIFY_CONSUMER_IDS_CHANGED to every member). Called on the thread that made the change, outside
 * the registry's locks; must not block.
 */
@FunctionalInterface
public interface ConsumerIdsChangeListener {

    /** @param group the group after the change (possibly without channels) */
    void consumerIdsChanged(ConsumerGroupView group);
}
