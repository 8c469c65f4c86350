package org.modmq.store;

/**
 * Told by a controller-mode master's store when its SyncStateSet should change; the broker proposes
 * the change to the controller and applies the answer with {@link MessageStore#applySyncStateSet}.
 * Called on the thread that saw the event (a replication network thread): must not block.
 */
public interface SyncStateListener {

    /** A member of the SyncStateSet lost its connection: it should be shrunk out. */
    void replicaLost(long brokerId);

    /** A replica outside the SyncStateSet caught up: it may be added. */
    void replicaCaughtUp(long brokerId);
}
