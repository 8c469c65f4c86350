package org.modmq.store.dispatch;

/** Told after dispatch that a ConsumeQueue grew. Called on the dispatching thread; must be quick. */
@FunctionalInterface
public interface QueueListener {

    void onDispatched(String topic, int queueId, long maxOffset);
}
