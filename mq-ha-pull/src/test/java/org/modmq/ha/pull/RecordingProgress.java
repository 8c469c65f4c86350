package org.modmq.ha.pull;

import java.util.ArrayList;
import java.util.List;
import org.modmq.api.spi.replication.ReplicaLink;
import org.modmq.api.spi.replication.ReplicaProgress;

/** Records what a master-side session reports. Synchronized. */
final class RecordingProgress implements ReplicaProgress {

    private final List<String> events = new ArrayList<>();

    @Override
    public synchronized void acknowledged(ReplicaLink replica, long offset) {
        events.add("ack " + replica.brokerId() + " " + offset);
    }

    @Override
    public synchronized void disconnected(ReplicaLink replica) {
        events.add("gone " + replica.brokerId());
    }

    synchronized List<String> events() {
        return List.copyOf(events);
    }
}
