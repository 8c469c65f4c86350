package org.modmq.broker.metadata;

import java.util.Map;

/**
 * RocketMQ's {@code TopicConfigSerializeWrapper} ({@code topics.json}) and, with the three mapping
 * fields set, {@code TopicConfigAndMappingSerializeWrapper} (registration and GET_ALL_TOPIC_CONFIG).
 * Null fields are left out of the JSON. Immutable.
 */
public record TopicConfigSerializeWrapper(DataVersion dataVersion, Map<String, TopicConfig> topicConfigTable,
                                          DataVersion mappingDataVersion,
                                          Map<String, Object> topicQueueMappingDetailMap,
                                          Map<String, Object> topicQueueMappingInfoMap) {

    public TopicConfigSerializeWrapper {
        topicConfigTable = topicConfigTable == null ? Map.of() : Map.copyOf(topicConfigTable);
    }

    /** The plain form written to {@code topics.json}. */
    public static TopicConfigSerializeWrapper plain(DataVersion version, Map<String, TopicConfig> topics) {
        return new TopicConfigSerializeWrapper(version, topics, null, null, null);
    }

    /** The "AndMapping" form with empty static-topic mappings. */
    public static TopicConfigSerializeWrapper withMapping(DataVersion version, Map<String, TopicConfig> topics,
                                                          DataVersion mappingVersion) {
        return new TopicConfigSerializeWrapper(version, topics, mappingVersion, Map.of(), Map.of());
    }
}
