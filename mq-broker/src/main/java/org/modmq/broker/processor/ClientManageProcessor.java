package org.modmq.broker.processor;

import java.util.Objects;
import java.util.Optional;
import org.modmq.broker.client.ConsumerData;
import org.modmq.broker.client.ConsumerGroupRegistry;
import org.modmq.broker.client.HeartbeatData;
import org.modmq.broker.client.ProducerData;
import org.modmq.broker.client.ProducerRegistry;
import org.modmq.broker.metadata.BrokerMetadata;
import org.modmq.broker.metadata.SubscriptionGroupConfig;
import org.modmq.remoting.netty.RemotingChannel;
import org.modmq.remoting.netty.RequestProcessor;
import org.modmq.remoting.protocol.JsonBodyException;
import org.modmq.remoting.protocol.RemotingCommand;
import org.modmq.remoting.protocol.RequestCode;
import org.modmq.remoting.protocol.ResponseCode;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * HEART_BEAT (34), UNREGISTER_CLIENT (35) and CHECK_CLIENT_CONFIG (46). A heartbeat creates the
 * consumer group (when allowed) and its {@code %RETRY%} topic, records the channel and subscriptions,
 * and registers producer groups. Thread-safe; runs on the client-manage executor.
 */
public final class ClientManageProcessor implements RequestProcessor.Sync {

    public static final int[] CODES = {RequestCode.HEART_BEAT, RequestCode.UNREGISTER_CLIENT,
        RequestCode.CHECK_CLIENT_CONFIG};
    private static final Logger LOG = LoggerFactory.getLogger(ClientManageProcessor.class);

    private final BrokerMetadata metadata;
    private final ConsumerGroupRegistry consumers;
    private final ProducerRegistry producers;

    public ClientManageProcessor(BrokerMetadata metadata, ConsumerGroupRegistry consumers, ProducerRegistry producers) {
        this.metadata = Objects.requireNonNull(metadata, "metadata");
        this.consumers = Objects.requireNonNull(consumers, "consumers");
        this.producers = Objects.requireNonNull(producers, "producers");
    }

    @Override
    public RemotingCommand process(RemotingChannel channel, RemotingCommand request) {
        return switch (request.code()) {
            case RequestCode.HEART_BEAT -> heartbeat(channel, request);
            case RequestCode.UNREGISTER_CLIENT -> unregister(channel, request);
            case RequestCode.CHECK_CLIENT_CONFIG -> Responses.success(request);
            default -> Responses.error(request, ResponseCode.REQUEST_CODE_NOT_SUPPORTED,
                    " request type " + request.code() + " not supported");
        };
    }

    private RemotingCommand heartbeat(RemotingChannel channel, RemotingCommand request) {
        HeartbeatData data;
        try {
            data = HeartbeatData.parse(request.body());
        } catch (JsonBodyException e) {
            LOG.info("bad heartbeat from {}: {}", channel.remoteAddressText(), e.getMessage());
            return Responses.error(request, ResponseCode.SYSTEM_ERROR, e.getMessage());
        }
        String language = request.language().name();
        for (ConsumerData consumer : data.consumerDataSet()) {
            Optional<SubscriptionGroupConfig> group = metadata.subscriptionGroups().findOrCreate(consumer.groupName());
            if (group.isEmpty()) {
                LOG.info("heartbeat of {} for unknown group {} ignored (autoCreateSubscriptionGroup=false)",
                        data.clientID(), consumer.groupName());
                continue;
            }
            int retryQueues = group.get().retryQueueNums();
            if (retryQueues > 0) {
                metadata.topics().retryTopicOf(consumer.groupName(), retryQueues);
            }
            consumers.register(channel, data.clientID(), language, request.version(), consumer,
                    data.withoutSub() && data.heartbeatFingerprint() != 0);
        }
        for (ProducerData producer : data.producerDataSet()) {
            producers.register(channel, data.clientID(), language, request.version(), producer.groupName());
        }
        return Responses.success(request)
                .putExtField("IS_SUPPORT_HEART_BEAT_V2", true)
                .putExtField("IS_SUB_CHANGE", true);
    }

    private RemotingCommand unregister(RemotingChannel channel, RemotingCommand request) {
        var headers = request.headers();
        headers.requireString("clientID");
        String producerGroup = headers.optionalString("producerGroup", null);
        String consumerGroup = headers.optionalString("consumerGroup", null);
        if (producerGroup != null) {
            producers.unregister(producerGroup, channel);
        }
        if (consumerGroup != null) {
            consumers.unregister(consumerGroup, channel);
        }
        return Responses.success(request);
    }
}
