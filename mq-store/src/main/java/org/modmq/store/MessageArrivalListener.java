package org.modmq.store;

/**
 * Told when new messages of a queue become readable (after dispatch), for example to wake held pulls.
 * Called on the thread that stored the message (or the replication thread); must be quick and not
 * call back into the store's write path.
 */
@FunctionalInterface
public interface MessageArrivalListener {

    void onArrival(String topic, int queueId, long maxOffset);
}
