package org.modmq.broker.timer;

import java.net.InetSocketAddress;
import java.util.List;
import java.util.Optional;
import org.modmq.api.message.BrokerMessage;
import org.modmq.api.message.StoredMessage;
import org.modmq.store.AppendedPut;

/**
 * What the timer agent needs from the message store: the role, queue 0 of {@code rmq_sys_wheel_timer},
 * messages by CommitLog offset and appends. Called on the agent's thread only.
 */
interface TimerAccess {

    /** Wheel-topic messages from a queue offset, and where the next read starts. */
    record Batch(List<StoredMessage> messages, long nextOffset) {
    }

    /** Whether the store is master now. */
    boolean master();

    /** The wheel topic queue's first held offset. */
    long minOffset();

    /** The wheel topic queue's next offset to be written. */
    long maxOffset();

    /** Up to {@code max} stored wheel-topic messages from {@code queueOffset}; records no longer held are skipped. */
    Batch read(long queueOffset, int max);

    /** As {@link #read}, but only progress markers (found by their tag code, without reading the others). */
    Batch readMarkers(long queueOffset, int max);

    /** The broker's address, the STOREHOST of the markers it appends. */
    InetSocketAddress storeHost();

    /** The message at {@code commitLogOffset}, if the CommitLog still holds one there. */
    Optional<StoredMessage> message(long commitLogOffset);

    /** Appends {@code message} (not waiting for replicas to answer the caller). */
    AppendedPut append(BrokerMessage message);
}
