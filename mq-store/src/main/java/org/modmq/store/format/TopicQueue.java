package org.modmq.store.format;

import java.util.Objects;

/** A topic and queue id: the key of a ConsumeQueue and of a queue-offset counter. */
public record TopicQueue(String topic, int queueId) {

    public TopicQueue {
        Objects.requireNonNull(topic, "topic");
    }
}
