package org.modmq.broker.slave;

import java.util.Collection;
import java.util.Objects;
import java.util.Optional;
import org.modmq.remoting.protocol.body.Perm;
import org.modmq.remoting.protocol.body.TopicConfig;

/**
 * What a slave serves for a topic its replicated log holds but its topic table does not yet: the
 * metadata sync copies the master's topics only every 10 s, so a topic created shortly before its
 * master died would otherwise stay unreadable on the slave (pulls answered TOPIC_NOT_EXIST, offset
 * commits refused) although every message is there. The stand-in config covers the queues the local
 * store has, readable and writable (a slave refuses sends anyway); it is never stored, so the next
 * successful sync's table stays the only source of truth. Stateless.
 */
public final class ReplicatedTopics {

    private ReplicatedTopics() {
    }

    /**
     * The config a slave uses for {@code topic} when its table has none.
     *
     * @param topic the topic asked for
     * @param localQueueIds the queue ids the local store holds for it
     * @return a config with {@code max(id) + 1} queues, or empty when the store holds no queue of it
     */
    public static Optional<TopicConfig> standIn(String topic, Collection<Integer> localQueueIds) {
        Objects.requireNonNull(topic, "topic");
        return localQueueIds.stream().max(Integer::compare)
                .map(maxId -> TopicConfig.of(topic, maxId + 1, Perm.READ_WRITE));
    }
}
