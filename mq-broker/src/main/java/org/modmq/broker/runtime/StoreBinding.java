package org.modmq.broker.runtime;

import java.util.Optional;
import java.util.function.Consumer;
import org.modmq.api.spi.replication.ReplicaRole;
import org.modmq.api.spi.replication.RoleState;
import org.modmq.store.MessageStore;

/**
 * The seam between the broker runtime and the message store. {@code BrokerServer} opens exactly one
 * binding at start (through a {@link StoreBindingFactory}) before it accepts connections and closes it
 * last, after the remoting server stopped and metadata was persisted. The binding owns the store and
 * every thread it starts (replication included); it registers the data-path processors (send, pull,
 * query, …) that need it.
 */
public interface StoreBinding extends AutoCloseable {

    /** Queue bounds for the offset processors. */
    QueueOffsets queueOffsets();

    /** What the admin processors read from the store; empty queues for a binding without messages. */
    default QueueStatsSource queueStats() {
        return QueueStatsSource.EMPTY;
    }

    /**
     * Registers the processors that need the store (SEND_MESSAGE_V2, PULL_MESSAGE, …). Called once,
     * before the server starts.
     */
    void registerProcessors(ProcessorRegistrar registrar);

    /** Deletes the ConsumeQueues of a deleted topic (DELETE_TOPIC_IN_BROKER). */
    void deleteTopicQueues(String topic);

    /**
     * A slave learned its master from a name server's REGISTER_BROKER answer (docs/protocol.md sections 3.2 and 12.1).
     * Called on a remoting client thread whenever the answer names another master; must not block. The
     * default ignores it (no replication).
     *
     * @param masterAddr the master's main address
     * @param masterHaAddr the master's HA address, null when the answer had none
     */
    default void masterChanged(String masterAddr, String masterHaAddr) {
    }

    /**
     * The store's role now: the one place the broker reads it from (send refusal, pull routing, offset
     * commits, registration, metadata sync). The default, for a binding without a store, is master.
     */
    default RoleState role() {
        return new RoleState(ReplicaRole.MASTER, 0, null);
    }

    /** Tells {@code listener} every role change, after it took effect. The default never calls it. */
    default void addRoleListener(Consumer<RoleState> listener) {
    }

    /** The message store, for the parts of the broker that drive its role (controller mode); empty without one. */
    default Optional<MessageStore> messageStore() {
        return Optional.empty();
    }

    /** Flushes and closes the store. Idempotent. */
    @Override
    void close();
}
