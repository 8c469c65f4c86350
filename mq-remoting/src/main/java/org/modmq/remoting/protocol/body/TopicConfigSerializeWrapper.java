package org.modmq.remoting.protocol.body;

import java.util.Collections;
import java.util.HashMap;
import java.util.Map;

/**
 * A broker's topic table with its version: RocketMQ's {@code TopicConfigSerializeWrapper} (the
 * broker's {@code topics.json}) and, with the three mapping fields set,
 * {@code TopicConfigAndMappingSerializeWrapper} (what a broker registers and answers to
 * GET_ALL_TOPIC_CONFIG). modmq has no static topics: the mapping tables are written empty and
 * ignored on input. Null fields are left out of the JSON. Immutable and thread-safe.
 *
 * @param dataVersion                version of the table, may be null in a decoded body
 * @param topicConfigTable           topic name to config, empty when absent
 * @param mappingDataVersion         version of the (empty) static-topic mappings, or null
 * @param topicQueueMappingDetailMap static-topic mapping details, or null
 * @param topicQueueMappingInfoMap   static-topic mapping infos, or null
 */
public record TopicConfigSerializeWrapper(DataVersion dataVersion, Map<String, TopicConfig> topicConfigTable,
                                          DataVersion mappingDataVersion,
                                          Map<String, Object> topicQueueMappingDetailMap,
                                          Map<String, Object> topicQueueMappingInfoMap) {

    public TopicConfigSerializeWrapper {
        // a copy that keeps null values: the name server decides what a registration with one means
        topicConfigTable = topicConfigTable == null ? Map.of()
                : Collections.unmodifiableMap(new HashMap<>(topicConfigTable));
    }

    /** The plain form, without mapping fields (as in {@code topics.json}). */
    public TopicConfigSerializeWrapper(DataVersion dataVersion, Map<String, TopicConfig> topicConfigTable) {
        this(dataVersion, topicConfigTable, null, null, null);
    }

    /** The plain form written to {@code topics.json}. */
    public static TopicConfigSerializeWrapper plain(DataVersion version, Map<String, TopicConfig> topics) {
        return new TopicConfigSerializeWrapper(version, topics);
    }

    /** The "AndMapping" form with empty static-topic mappings. */
    public static TopicConfigSerializeWrapper withMapping(DataVersion version, Map<String, TopicConfig> topics,
                                                          DataVersion mappingVersion) {
        return new TopicConfigSerializeWrapper(version, topics, mappingVersion, Map.of(), Map.of());
    }
}
