package org.modmq.broker.admin;

import org.modmq.broker.runtime.QueueStatsSource;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import org.modmq.broker.admin.AdminBodies.MessageQueue;
import org.modmq.broker.admin.AdminBodies.TopicList;
import org.modmq.broker.admin.AdminBodies.TopicOffset;
import org.modmq.broker.admin.AdminBodies.TopicStatsTable;
import org.modmq.broker.metadata.SystemTopics;
import org.modmq.remoting.netty.RemotingChannel;
import org.modmq.remoting.netty.RequestProcessor;
import org.modmq.remoting.protocol.RemotingCommand;
import org.modmq.remoting.protocol.RequestCode;
import org.modmq.remoting.protocol.ResponseCode;
import org.modmq.remoting.protocol.body.TopicConfig;

/**
 * Topic figures: GET_TOPIC_STATS_INFO (202, {@code topicStatus}), GET_SYSTEM_TOPIC_LIST_FROM_BROKER
 * (305) and GET_TOPIC_NAME_LIST (23). Thread-safe; admin executor.
 */
public final class TopicStatsProcessor implements RequestProcessor.Sync {

    public static final int[] CODES = {RequestCode.GET_TOPIC_STATS_INFO, RequestCode.GET_SYSTEM_TOPIC_LIST_FROM_BROKER,
        RequestCode.GET_TOPIC_NAME_LIST};
    /** System topics named outside the broker's start-up set (docs/protocol.md section 9.6). */
    private static final Set<String> EXTRA_SYSTEM_TOPICS = Set.of(SystemTopics.TRANS_CHECK_MAX_TIME,
            "RMQ_SYS_TRACE_TOPIC");

    private final AdminContext context;

    public TopicStatsProcessor(AdminContext context) {
        this.context = Objects.requireNonNull(context, "context");
    }

    @Override
    public RemotingCommand process(RemotingChannel channel, RemotingCommand request) {
        return switch (request.code()) {
            case RequestCode.GET_TOPIC_STATS_INFO -> topicStats(request);
            case RequestCode.GET_SYSTEM_TOPIC_LIST_FROM_BROKER -> AdminResponses.json(request,
                    new TopicList(systemTopics(), null));
            case RequestCode.GET_TOPIC_NAME_LIST -> AdminResponses.json(request, new TopicList(
                    context.runtime().metadata().topics().snapshot().keySet(), context.brokerAddr().get()));
            default -> AdminResponses.unsupported(request);
        };
    }

    private RemotingCommand topicStats(RemotingCommand request) {
        String topic = request.headers().requireString("topic");
        Optional<TopicConfig> config = context.runtime().metadata().topics().get(topic);
        if (config.isEmpty()) {
            return AdminResponses.error(request, ResponseCode.TOPIC_NOT_EXIST, "topic[" + topic + "] not exist");
        }
        QueueStatsSource queues = context.queues();
        Map<MessageQueue, TopicOffset> table = new LinkedHashMap<>();
        for (int queueId = 0; queueId < config.get().queueCount(); queueId++) {
            long min = Math.max(0, queues.minOffset(topic, queueId));
            long max = Math.max(0, queues.maxOffset(topic, queueId));
            long last = max > 0 ? Math.max(0, queues.storeTimestamp(topic, queueId, max - 1)) : 0;
            table.put(new MessageQueue(context.brokerName(), queueId, topic), new TopicOffset(last, max, min));
        }
        return AdminResponses.json(request, new TopicStatsTable(table, context.stats().topicPutTps(topic)));
    }

    private Set<String> systemTopics() {
        Set<String> names = new TreeSet<>(EXTRA_SYSTEM_TOPICS);
        SystemTopics.forBroker(context.runtime().config().identity(), context.runtime().config().topics())
                .forEach(t -> names.add(t.topicName()));
        return names;
    }
}
