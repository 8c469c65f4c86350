package org.modmq.broker.admin;

import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import org.modmq.broker.admin.AdminBodies.GroupList;
import org.modmq.broker.admin.AdminBodies.TopicList;
import org.modmq.broker.client.ConsumerGroupView;
import org.modmq.remoting.netty.RemotingChannel;
import org.modmq.remoting.netty.RequestProcessor;
import org.modmq.remoting.protocol.RemotingCommand;
import org.modmq.remoting.protocol.RequestCode;

/**
 * Who consumes what: QUERY_TOPIC_CONSUME_BY_WHO (300) answers the groups with a live subscription to
 * the topic or an offset stored on it; QUERY_TOPICS_BY_CONSUMER (343) the topics a group has offsets
 * on or is live-subscribed to. Thread-safe; admin executor.
 */
public final class ConsumptionLookupProcessor implements RequestProcessor.Sync {

    public static final int[] CODES = {RequestCode.QUERY_TOPIC_CONSUME_BY_WHO, RequestCode.QUERY_TOPICS_BY_CONSUMER};

    private final AdminContext context;

    public ConsumptionLookupProcessor(AdminContext context) {
        this.context = Objects.requireNonNull(context, "context");
    }

    @Override
    public RemotingCommand process(RemotingChannel channel, RemotingCommand request) {
        return switch (request.code()) {
            case RequestCode.QUERY_TOPIC_CONSUME_BY_WHO -> consumersOf(request);
            case RequestCode.QUERY_TOPICS_BY_CONSUMER -> topicsOf(request);
            default -> AdminResponses.unsupported(request);
        };
    }

    private RemotingCommand consumersOf(RemotingCommand request) {
        String topic = request.headers().requireString("topic");
        Set<String> groups = new TreeSet<>(context.runtime().metadata().consumerOffsets().groupsOf(topic));
        for (ConsumerGroupView view : context.runtime().consumers().groups()) {
            if (view.subscriptions().containsKey(topic)) {
                groups.add(view.groupName());
            }
        }
        return AdminResponses.json(request, new GroupList(groups));
    }

    private RemotingCommand topicsOf(RemotingCommand request) {
        String group = request.headers().requireString("group");
        Set<String> topics = new TreeSet<>(context.runtime().metadata().consumerOffsets().topicsOf(group));
        context.runtime().consumers().group(group).ifPresent(view -> topics.addAll(view.subscriptions().keySet()));
        return AdminResponses.json(request, new TopicList(topics, context.brokerAddr().get()));
    }
}
