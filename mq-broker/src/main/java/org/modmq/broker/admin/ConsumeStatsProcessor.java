package org.modmq.broker.admin;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.modmq.broker.admin.AdminBodies.ConsumeStats;
import org.modmq.broker.admin.AdminBodies.ConsumeStatsList;
import org.modmq.remoting.netty.RemotingChannel;
import org.modmq.remoting.netty.RequestProcessor;
import org.modmq.remoting.protocol.HeaderFields;
import org.modmq.remoting.protocol.RemotingCommand;
import org.modmq.remoting.protocol.RequestCode;

/**
 * GET_CONSUME_STATS (208, {@code consumerProgress}) and GET_BROKER_CONSUME_STATS (317, every group
 * at once). Thread-safe; admin executor.
 */
public final class ConsumeStatsProcessor implements RequestProcessor.Sync {

    public static final int[] CODES = {RequestCode.GET_CONSUME_STATS, RequestCode.GET_BROKER_CONSUME_STATS};

    private final AdminContext context;
    private final ConsumeStatsCollector collector;

    public ConsumeStatsProcessor(AdminContext context) {
        this.context = Objects.requireNonNull(context, "context");
        this.collector = new ConsumeStatsCollector(context);
    }

    @Override
    public RemotingCommand process(RemotingChannel channel, RemotingCommand request) {
        return switch (request.code()) {
            case RequestCode.GET_CONSUME_STATS -> consumeStats(request);
            case RequestCode.GET_BROKER_CONSUME_STATS -> brokerConsumeStats(request);
            default -> AdminResponses.unsupported(request);
        };
    }

    private RemotingCommand consumeStats(RemotingCommand request) {
        HeaderFields headers = request.headers();
        String group = headers.requireString("consumerGroup");
        String topic = headers.optionalString("topic", "").trim();
        String topicList = headers.optionalString("topicList", "").trim();
        Collection<String> topics;
        if (!topic.isEmpty()) {
            topics = List.of(topic);
        } else if (!topicList.isEmpty()) {
            topics = Arrays.stream(topicList.split(",")).map(String::trim).filter(t -> !t.isEmpty()).distinct()
                    .toList();
        } else {
            topics = context.runtime().metadata().consumerOffsets().topicsOf(group);
        }
        return AdminResponses.json(request, collector.collect(group, topics));
    }

    private RemotingCommand brokerConsumeStats(RemotingCommand request) {
        boolean onlyOrdered = request.headers().optionalBoolean("isOrder", false);
        List<Map<String, List<ConsumeStats>>> perGroup = new ArrayList<>();
        long totalDiff = 0;
        for (String group : context.runtime().metadata().subscriptionGroups().wrapper().subscriptionGroupTable()
                .keySet()) {
            List<ConsumeStats> stats = new ArrayList<>();
            for (String topic : context.runtime().metadata().consumerOffsets().topicsOf(group)) {
                Optional<ConsumeStats> one = collector.forTopic(group, topic, onlyOrdered);
                one.ifPresent(stats::add);
            }
            totalDiff += stats.stream().mapToLong(ConsumeStats::computeDiff).sum();
            perGroup.add(Map.of(group, stats));
        }
        return AdminResponses.json(request, new ConsumeStatsList(context.brokerAddr().get(), perGroup, totalDiff));
    }
}
