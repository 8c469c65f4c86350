package org.modmq.broker.client;

import java.util.Objects;

/** The producer part of a heartbeat: one producer group. Immutable. */
public record ProducerData(String groupName) {

    public ProducerData {
        Objects.requireNonNull(groupName, "groupName");
    }
}
