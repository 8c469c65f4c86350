package org.modmq.namesrv.body;

import java.util.Map;

/**
 * A broker's topic table with its version. The static-topic fields of the "AndMapping" variant
 * ({@code mappingDataVersion}, {@code topicQueueMappingDetailMap}, {@code topicQueueMappingInfoMap})
 * are accepted on input and dropped: modmq has no static topics.
 *
 * @param dataVersion      version of the table, may be null
 * @param topicConfigTable topic name to config, may be null
 */
public record TopicConfigSerializeWrapper(DataVersion dataVersion, Map<String, TopicConfig> topicConfigTable) {
}
