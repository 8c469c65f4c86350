package org.modmq.broker.processor;

import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import org.modmq.broker.client.ClientChannelInfo;
import org.modmq.broker.client.ConsumerGroupRegistry;
import org.modmq.broker.client.ConsumerGroupView;
import org.modmq.broker.client.ProducerRegistry;
import org.modmq.broker.client.SubscriptionData;
import org.modmq.broker.metadata.BrokerMetadata;
import org.modmq.broker.metadata.SubscriptionGroupConfig;
import org.modmq.broker.metadata.TopicValidator;
import org.modmq.remoting.netty.RemotingChannel;
import org.modmq.remoting.netty.RequestProcessor;
import org.modmq.remoting.protocol.Json;
import org.modmq.remoting.protocol.JsonBodyException;
import org.modmq.remoting.protocol.RemotingCommand;
import org.modmq.remoting.protocol.RequestCode;
import org.modmq.remoting.protocol.ResponseCode;

/**
 * Subscription-group and connection administration: UPDATE_AND_CREATE_SUBSCRIPTIONGROUP (200),
 * GET_ALL_SUBSCRIPTIONGROUP_CONFIG (201), DELETE_SUBSCRIPTIONGROUP (207), GET_SUBSCRIPTIONGROUP_CONFIG
 * (352), GET_CONSUMER_CONNECTION_LIST (203), GET_PRODUCER_CONNECTION_LIST (204). Thread-safe; admin
 * executor.
 */
public final class GroupAdminProcessor implements RequestProcessor.Sync {

    public static final int[] CODES = {RequestCode.UPDATE_AND_CREATE_SUBSCRIPTIONGROUP,
        RequestCode.GET_ALL_SUBSCRIPTIONGROUP_CONFIG, RequestCode.DELETE_SUBSCRIPTIONGROUP,
        RequestCode.GET_SUBSCRIPTIONGROUP_CONFIG, RequestCode.GET_CONSUMER_CONNECTION_LIST,
        RequestCode.GET_PRODUCER_CONNECTION_LIST};

    private final BrokerMetadata metadata;
    private final ConsumerGroupRegistry consumers;
    private final ProducerRegistry producers;

    public GroupAdminProcessor(BrokerMetadata metadata, ConsumerGroupRegistry consumers, ProducerRegistry producers) {
        this.metadata = Objects.requireNonNull(metadata, "metadata");
        this.consumers = Objects.requireNonNull(consumers, "consumers");
        this.producers = Objects.requireNonNull(producers, "producers");
    }

    /** Body of GET_CONSUMER_CONNECTION_LIST. */
    public record ConsumerConnection(Set<Connection> connectionSet, String consumeFromWhere, String consumeType,
                                     String messageModel, Map<String, SubscriptionData> subscriptionTable) {
    }

    /** Body of GET_PRODUCER_CONNECTION_LIST. */
    public record ProducerConnection(Set<Connection> connectionSet) {
    }

    @Override
    public RemotingCommand process(RemotingChannel channel, RemotingCommand request) {
        return switch (request.code()) {
            case RequestCode.UPDATE_AND_CREATE_SUBSCRIPTIONGROUP -> updateGroup(request);
            case RequestCode.GET_ALL_SUBSCRIPTIONGROUP_CONFIG ->
                    Responses.json(request, metadata.subscriptionGroups().wrapper());
            case RequestCode.DELETE_SUBSCRIPTIONGROUP -> deleteGroup(request);
            case RequestCode.GET_SUBSCRIPTIONGROUP_CONFIG -> getGroup(request);
            case RequestCode.GET_CONSUMER_CONNECTION_LIST -> consumerConnections(request);
            case RequestCode.GET_PRODUCER_CONNECTION_LIST -> producerConnections(request);
            default -> Responses.error(request, ResponseCode.REQUEST_CODE_NOT_SUPPORTED,
                    " request type " + request.code() + " not supported");
        };
    }

    private RemotingCommand updateGroup(RemotingCommand request) {
        SubscriptionGroupConfig config;
        try {
            config = Json.decodeWithDefaults(request.body(), SubscriptionGroupConfig.defaults("?"),
                    SubscriptionGroupConfig.class);
        } catch (JsonBodyException e) {
            return Responses.error(request, ResponseCode.INVALID_PARAMETER, e.getMessage());
        }
        if (config.groupName().isBlank() || config.groupName().equals("?")) {
            return Responses.error(request, ResponseCode.INVALID_PARAMETER, "The specified group is blank.");
        }
        Optional<String> problem = TopicValidator.groupProblem(config.groupName()).or(() -> numbersProblem(config));
        if (problem.isPresent()) {
            return Responses.error(request, ResponseCode.INVALID_PARAMETER, problem.get());
        }
        metadata.subscriptionGroups().upsert(config);
        return Responses.success(request);
    }

    /** The counts a group's retry topic and retries are built from. */
    private static Optional<String> numbersProblem(SubscriptionGroupConfig config) {
        if (config.retryQueueNums() < 0 || config.retryQueueNums() > TopicAdminProcessor.MAX_QUEUES) {
            return Optional.of("retryQueueNums=" + config.retryQueueNums() + " is not valid: expected [0, "
                    + TopicAdminProcessor.MAX_QUEUES + "]");
        }
        if (config.retryMaxTimes() < -1) {
            return Optional.of("retryMaxTimes=" + config.retryMaxTimes() + " is not valid: expected -1 or more");
        }
        if (config.brokerId() < 0 || config.whichBrokerWhenConsumeSlowly() < 0 || config.consumeTimeoutMinute() < 0) {
            return Optional.of("brokerId, whichBrokerWhenConsumeSlowly and consumeTimeoutMinute must not be negative");
        }
        return Optional.empty();
    }

    private RemotingCommand deleteGroup(RemotingCommand request) {
        String group = request.headers().requireString("groupName");
        metadata.subscriptionGroups().delete(group);
        if (request.headers().optionalBoolean("cleanOffset", false)) {
            metadata.consumerOffsets().removeGroup(group);
        }
        return Responses.success(request);
    }

    private RemotingCommand getGroup(RemotingCommand request) {
        String group = request.headers().requireString("group");
        return metadata.subscriptionGroups().get(group)
                .map(config -> Responses.json(request, config))
                .orElseGet(() -> Responses.error(request, ResponseCode.SUBSCRIPTION_GROUP_NOT_EXIST,
                        "The subscription group does not exist: " + group));
    }

    private RemotingCommand consumerConnections(RemotingCommand request) {
        String group = request.headers().requireString("consumerGroup");
        ConsumerGroupView view = consumers.group(group).filter(v -> !v.channels().isEmpty()).orElse(null);
        if (view == null) {
            return Responses.error(request, ResponseCode.CONSUMER_NOT_ONLINE, "the consumer group not online");
        }
        return Responses.json(request, new ConsumerConnection(connections(view.channels()), view.consumeFromWhere(),
                view.consumeType(), view.messageModel(), view.subscriptions()));
    }

    private RemotingCommand producerConnections(RemotingCommand request) {
        String group = request.headers().requireString("producerGroup");
        List<ClientChannelInfo> channels = producers.connections(group);
        if (channels.isEmpty()) {
            return Responses.error(request, ResponseCode.SYSTEM_ERROR, "the producer group not exist");
        }
        return Responses.json(request, new ProducerConnection(connections(channels)));
    }

    private static Set<Connection> connections(List<ClientChannelInfo> channels) {
        return Set.copyOf(channels.stream().map(c -> new Connection(c.channel().remoteAddressText(), c.clientId(),
                c.language(), c.version())).toList());
    }
}
