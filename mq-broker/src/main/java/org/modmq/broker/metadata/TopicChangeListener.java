package org.modmq.broker.metadata;

import org.modmq.remoting.protocol.body.DataVersion;
import org.modmq.remoting.protocol.body.TopicConfig;

/**
 * Told after a topic was created or changed and persisted (the name-server agent sends an
 * incremental registration). Called on the thread that made the change, outside the table's lock;
 * must not block.
 */
@FunctionalInterface
public interface TopicChangeListener {

    void topicChanged(TopicConfig topic, DataVersion version);
}
