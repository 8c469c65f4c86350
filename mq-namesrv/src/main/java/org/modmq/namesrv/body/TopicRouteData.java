package org.modmq.namesrv.body;

import java.util.List;
import java.util.Map;

/**
 * Answer of {@code GET_ROUTEINFO_BY_TOPIC}.
 *
 * @param brokerDatas       every broker set holding queues of the topic
 * @param filterServerTable broker address to filter servers, normally empty
 * @param orderTopicConf    {@code brokerName:queueCount;...} for ordered topics, may be null
 * @param queueDatas        the topic's queues per broker set
 */
public record TopicRouteData(List<BrokerData> brokerDatas, Map<String, List<String>> filterServerTable,
                             String orderTopicConf, List<QueueData> queueDatas) {

    /** A copy with {@code orderTopicConf} set. */
    public TopicRouteData withOrderTopicConf(String conf) {
        return new TopicRouteData(brokerDatas, filterServerTable, conf, queueDatas);
    }
}
