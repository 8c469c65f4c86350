package org.modmq.namesrv.route;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.modmq.remoting.protocol.body.DataVersion;
import org.modmq.remoting.protocol.body.TopicConfig;
import org.modmq.remoting.protocol.body.TopicConfigSerializeWrapper;

/** Builders for registrations in route tests. */
final class RouteFixtures {

    static final String CLUSTER = "DefaultCluster";
    static final String MASTER_ADDR = "127.0.0.1:20911";
    static final String SLAVE_ADDR = "127.0.0.1:21911";

    private RouteFixtures() {
    }

    static TopicConfig topic(String name, int queues, int perm) {
        return new TopicConfig(name, queues, queues, perm, "SINGLE_TAG", 0, false, Map.of());
    }

    static TopicConfigSerializeWrapper table(long counter, TopicConfig... topics) {
        Map<String, TopicConfig> map = new LinkedHashMap<>();
        for (TopicConfig topic : topics) {
            map.put(topic.topicName(), topic);
        }
        return new TopicConfigSerializeWrapper(new DataVersion(counter, 0, 1000 + counter), map);
    }

    static BrokerRegistration registration(String brokerName, String addr, long id, TopicConfigSerializeWrapper table,
                                           Object channel) {
        return new BrokerRegistration(CLUSTER, addr, brokerName, id, addr.replace("911", "912"), null, null,
                Boolean.FALSE, table, List.of(), channel);
    }

    static BrokerRegistration master(String brokerName, TopicConfigSerializeWrapper table) {
        return registration(brokerName, MASTER_ADDR, 0, table, "channel-master");
    }
}
