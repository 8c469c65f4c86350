package org.modmq.broker.metadata;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.modmq.broker.config.BrokerIdentityConfig;
import org.modmq.broker.config.TopicDefaultsConfig;
import org.modmq.remoting.protocol.body.Perm;
import org.modmq.remoting.protocol.body.TopicConfig;

/**
 * The topics a broker creates at start, as a fresh RocketMQ 5.3.3 broker does (docs/protocol.md section 9.6).
 * Stateless.
 */
public final class SystemTopics {

    public static final String AUTO_CREATE_TEMPLATE = "TBW102";
    public static final String SELF_TEST = "SELF_TEST_TOPIC";
    public static final String BENCHMARK = "BenchmarkTest";
    public static final String OFFSET_MOVED_EVENT = "OFFSET_MOVED_EVENT";
    public static final String SCHEDULE = "SCHEDULE_TOPIC_XXXX";
    public static final String TRANS_HALF = "RMQ_SYS_TRANS_HALF_TOPIC";
    public static final String TRANS_OP_HALF = "RMQ_SYS_TRANS_OP_HALF_TOPIC";
    public static final String TRANS_CHECK_MAX_TIME = "TRANS_CHECK_MAX_TIME_TOPIC";
    public static final String WHEEL_TIMER = "rmq_sys_wheel_timer";
    public static final int SCHEDULE_QUEUES = 18;

    private SystemTopics() {
    }

    /** The configs to create at start for this broker; names already stored keep their stored config. */
    public static List<TopicConfig> forBroker(BrokerIdentityConfig identity, TopicDefaultsConfig defaults) {
        List<TopicConfig> topics = new ArrayList<>();
        topics.add(TopicConfig.of(SELF_TEST, 1, Perm.READ_WRITE));
        if (defaults.autoCreateTopicEnable()) {
            topics.add(TopicConfig.of(AUTO_CREATE_TEMPLATE, defaults.defaultTopicQueueNums(),
                    Perm.READ_WRITE | Perm.INHERIT));
        }
        topics.add(TopicConfig.of(BENCHMARK, 1024, Perm.READ_WRITE));
        topics.add(new TopicConfig(identity.clusterName(), 16, 16, Perm.READ_WRITE | Perm.INHERIT,
                TopicConfig.SINGLE_TAG, 0, false, null));
        topics.add(TopicConfig.of(identity.brokerName(), 1, Perm.READ_WRITE | Perm.INHERIT));
        topics.add(TopicConfig.of(OFFSET_MOVED_EVENT, 1, Perm.READ_WRITE));
        topics.add(TopicConfig.of(SCHEDULE, SCHEDULE_QUEUES, Perm.READ_WRITE));
        topics.add(TopicConfig.of(identity.clusterName() + "_REPLY_TOPIC", 1, Perm.READ_WRITE));
        topics.add(TopicConfig.of("rmq_sys_REVIVE_LOG_" + identity.clusterName(), 8, Perm.READ_WRITE));
        topics.add(TopicConfig.of("rmq_sys_SYNC_BROKER_MEMBER_" + identity.brokerName(), 1, Perm.READ_WRITE));
        topics.add(TopicConfig.of(TRANS_HALF, 1, Perm.READ_WRITE));
        topics.add(TopicConfig.of(TRANS_OP_HALF, 1, Perm.READ_WRITE));
        topics.add(TopicConfig.of(WHEEL_TIMER, 1, Perm.READ_WRITE));
        return topics;
    }

    /** Whether UPDATE_AND_CREATE_TOPIC and DELETE_TOPIC_IN_BROKER must refuse {@code topic} on this broker. */
    public static boolean isSystemTopic(BrokerIdentityConfig identity, String topic) {
        if (topic.startsWith("rmq_sys_") || topic.equals(TRANS_CHECK_MAX_TIME) || topic.equals("RMQ_SYS_TRACE_TOPIC")) {
            return true;
        }
        Set<String> names = new TreeSet<>();
        forBroker(identity, new TopicDefaultsConfig(true, true, 8)).forEach(t -> names.add(t.topicName()));
        return names.contains(topic);
    }
}
