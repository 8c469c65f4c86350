package org.modmq.broker.processor;

import java.util.List;
import java.util.Objects;
import java.util.function.BooleanSupplier;
import java.util.OptionalLong;
import org.modmq.broker.client.ConsumerGroupRegistry;
import org.modmq.broker.client.ConsumerGroupView;
import org.modmq.broker.metadata.BrokerMetadata;
import org.modmq.broker.runtime.QueueOffsets;
import org.modmq.remoting.netty.RemotingChannel;
import org.modmq.remoting.netty.RequestProcessor;
import org.modmq.remoting.protocol.HeaderFields;
import org.modmq.remoting.protocol.RemotingCommand;
import org.modmq.remoting.protocol.RequestCode;
import org.modmq.remoting.protocol.ResponseCode;

/**
 * GET_CONSUMER_LIST_BY_GROUP (38), QUERY_CONSUMER_OFFSET (14) and UPDATE_CONSUMER_OFFSET (15, one-way
 * from consumers: its answer is dropped by the remoting layer). Thread-safe; runs on the
 * consumer-manage executor.
 */
public final class ConsumerManageProcessor implements RequestProcessor.Sync {

    public static final int[] CODES = {RequestCode.GET_CONSUMER_LIST_BY_GROUP, RequestCode.QUERY_CONSUMER_OFFSET,
        RequestCode.UPDATE_CONSUMER_OFFSET};

    private final BrokerMetadata metadata;
    private final ConsumerGroupRegistry consumers;
    private final QueueOffsets queues;
    private final BooleanSupplier slave;

    public ConsumerManageProcessor(BrokerMetadata metadata, ConsumerGroupRegistry consumers, QueueOffsets queues) {
        this(metadata, consumers, queues, () -> false);
    }

    /**
     * @param slave whether this broker is a slave now: it then takes commits for a topic its table lacks
     *        while its store holds that queue (see {@code ReplicatedTopics})
     */
    public ConsumerManageProcessor(BrokerMetadata metadata, ConsumerGroupRegistry consumers, QueueOffsets queues,
                                   BooleanSupplier slave) {
        this.metadata = Objects.requireNonNull(metadata, "metadata");
        this.consumers = Objects.requireNonNull(consumers, "consumers");
        this.queues = Objects.requireNonNull(queues, "queues");
        this.slave = slave;
    }

    /** Body of GET_CONSUMER_LIST_BY_GROUP. */
    public record ConsumerIdList(List<String> consumerIdList) {
    }

    @Override
    public RemotingCommand process(RemotingChannel channel, RemotingCommand request) {
        return switch (request.code()) {
            case RequestCode.GET_CONSUMER_LIST_BY_GROUP -> consumerList(request);
            case RequestCode.QUERY_CONSUMER_OFFSET -> queryOffset(request);
            case RequestCode.UPDATE_CONSUMER_OFFSET -> updateOffset(request);
            default -> Responses.error(request, ResponseCode.REQUEST_CODE_NOT_SUPPORTED,
                    " request type " + request.code() + " not supported");
        };
    }

    private RemotingCommand consumerList(RemotingCommand request) {
        String group = request.headers().requireString("consumerGroup");
        List<String> ids = consumers.group(group).map(ConsumerGroupView::clientIds).orElse(List.of());
        if (ids.isEmpty()) {
            return Responses.error(request, ResponseCode.SYSTEM_ERROR, "no consumer for this group, " + group);
        }
        return Responses.json(request, new ConsumerIdList(ids));
    }

    private RemotingCommand queryOffset(RemotingCommand request) {
        HeaderFields headers = request.headers();
        String group = headers.requireString("consumerGroup");
        String topic = headers.requireString("topic");
        int queueId = headers.requireInt("queueId");
        OptionalLong stored = metadata.consumerOffsets().query(group, topic, queueId);
        // A negative commit (some clients commit -1 for a queue they never read) is kept, as RocketMQ keeps
        // it, but answered as no offset: else the client takes -1 as a first start and skips to the end.
        if (stored.isPresent() && stored.getAsLong() >= 0) {
            return Responses.success(request).putExtField("offset", stored.getAsLong());
        }
        boolean zeroAllowed = headers.optionalBoolean("setZeroIfNotFound", true);
        // A new group starts at 0 only while the queue's first message is still hot; otherwise the
        // client falls back to consumeFromWhere (docs/protocol.md section 8.4; section 15, trap 7).
        if (zeroAllowed && queues.minOffset(topic, queueId) <= 0 && queues.maxOffset(topic, queueId) > 0
                && queues.isInMemory(topic, queueId, 0)) {
            return Responses.success(request).putExtField("offset", 0L);
        }
        return Responses.error(request, ResponseCode.QUERY_NOT_FOUND,
                "Not found, V3_0_6_SNAPSHOT maybe this group consumer boot first");
    }

    private RemotingCommand updateOffset(RemotingCommand request) {
        HeaderFields headers = request.headers();
        String group = headers.requireString("consumerGroup");
        String topic = headers.requireString("topic");
        int queueId = headers.requireInt("queueId");
        long offset = headers.requireLong("commitOffset");
        if (metadata.subscriptionGroups().get(group).isEmpty()) {
            return Responses.error(request, ResponseCode.SUBSCRIPTION_GROUP_NOT_EXIST,
                    "subscription group not exist, " + group);
        }
        // A slave whose metadata sync has not brought the topic yet still holds the replicated queue.
        boolean replicated = slave.getAsBoolean() && queues.maxOffset(topic, queueId) > 0;
        if (metadata.topics().get(topic).isEmpty() && !replicated) {
            return Responses.error(request, ResponseCode.TOPIC_NOT_EXIST, "topic not exist, " + topic);
        }
        metadata.consumerOffsets().commit(group, topic, queueId, offset);
        return Responses.success(request);
    }
}
