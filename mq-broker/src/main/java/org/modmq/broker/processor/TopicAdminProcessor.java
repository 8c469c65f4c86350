package org.modmq.broker.processor;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.modmq.broker.config.BrokerIdentityConfig;
import org.modmq.broker.metadata.BrokerMetadata;
import org.modmq.broker.metadata.SystemTopics;
import org.modmq.broker.metadata.TopicValidator;
import org.modmq.broker.runtime.StoreBinding;
import org.modmq.remoting.netty.RemotingChannel;
import org.modmq.remoting.netty.RequestProcessor;
import org.modmq.remoting.protocol.HeaderFields;
import org.modmq.remoting.protocol.RemotingCommand;
import org.modmq.remoting.protocol.RequestCode;
import org.modmq.remoting.protocol.ResponseCode;
import org.modmq.remoting.protocol.body.TopicConfig;

/**
 * Topic administration: UPDATE_AND_CREATE_TOPIC (17), DELETE_TOPIC_IN_BROKER (215),
 * GET_ALL_TOPIC_CONFIG (21) and GET_TOPIC_CONFIG (351). Creating or changing a topic persists it and
 * (through the table's listener) registers it with the name servers. Thread-safe; admin executor.
 */
public final class TopicAdminProcessor implements RequestProcessor.Sync {

    public static final int[] CODES = {RequestCode.UPDATE_AND_CREATE_TOPIC, RequestCode.DELETE_TOPIC_IN_BROKER,
        RequestCode.GET_ALL_TOPIC_CONFIG, RequestCode.GET_TOPIC_CONFIG};
    /** Largest read or write queue count of one topic on one broker (RocketMQ's BenchmarkTest has 1024). */
    public static final int MAX_QUEUES = 1024;
    /** RocketMQ's TopicSysFlag bits: FLAG_UNIT (1) and FLAG_UNIT_SUB (2). */
    private static final int MAX_TOPIC_SYS_FLAG = 3;
    private static final int MAX_ATTRIBUTES = 32;
    private static final int MAX_ATTRIBUTE_LENGTH = 256;

    private final BrokerIdentityConfig identity;
    private final BrokerMetadata metadata;
    private final StoreBinding store;

    public TopicAdminProcessor(BrokerIdentityConfig identity, BrokerMetadata metadata, StoreBinding store) {
        this.identity = Objects.requireNonNull(identity, "identity");
        this.metadata = Objects.requireNonNull(metadata, "metadata");
        this.store = Objects.requireNonNull(store, "store");
    }

    @Override
    public RemotingCommand process(RemotingChannel channel, RemotingCommand request) {
        return switch (request.code()) {
            case RequestCode.UPDATE_AND_CREATE_TOPIC -> update(request);
            case RequestCode.DELETE_TOPIC_IN_BROKER -> delete(request);
            case RequestCode.GET_ALL_TOPIC_CONFIG -> Responses.json(request, metadata.topics().wrapper());
            case RequestCode.GET_TOPIC_CONFIG -> get(request);
            default -> Responses.error(request, ResponseCode.REQUEST_CODE_NOT_SUPPORTED,
                    " request type " + request.code() + " not supported");
        };
    }

    private RemotingCommand update(RemotingCommand request) {
        HeaderFields headers = request.headers();
        String topic = headers.optionalString("topic", "");
        Optional<String> problem = TopicValidator.problem(topic);
        if (problem.isPresent()) {
            return Responses.error(request, ResponseCode.INVALID_PARAMETER, problem.get());
        }
        Optional<TopicConfig> existing = metadata.topics().get(topic);
        // Retry and dead-letter topics are the broker's to create; an operator may still change one that exists.
        boolean brokerOwned = topic.startsWith(TopicValidator.RETRY_PREFIX) || topic.startsWith(TopicValidator.DLQ_PREFIX);
        if (SystemTopics.isSystemTopic(identity, topic)
                || (TopicValidator.isSystemName(topic) && !(brokerOwned && existing.isPresent()))) {
            return Responses.error(request, ResponseCode.INVALID_PARAMETER,
                    "The topic[" + topic + "] is conflict with system topic.");
        }
        int read = headers.optionalInt("readQueueNums", existing.map(TopicConfig::readQueueNums).orElse(16));
        int write = headers.optionalInt("writeQueueNums", existing.map(TopicConfig::writeQueueNums).orElse(16));
        int perm = headers.optionalInt("perm", existing.map(TopicConfig::perm).orElse(6));
        if (read < 1 || write < 1 || read > MAX_QUEUES || write > MAX_QUEUES) {
            return Responses.error(request, ResponseCode.INVALID_PARAMETER, "readQueueNums=" + read
                    + " and writeQueueNums=" + write + " must each be in [1, " + MAX_QUEUES + "]");
        }
        // RocketMQ's PermName.isValid.
        if (perm < 0 || perm > 7) {
            return Responses.error(request, ResponseCode.INVALID_PARAMETER, "perm=" + perm
                    + " is not valid: expected [0, 7] (4 read, 2 write, 1 inherit)");
        }
        int sysFlag = headers.optionalInt("topicSysFlag", existing.map(TopicConfig::topicSysFlag).orElse(0));
        if (sysFlag < 0 || sysFlag > MAX_TOPIC_SYS_FLAG) {
            return Responses.error(request, ResponseCode.INVALID_PARAMETER, "topicSysFlag=" + sysFlag
                    + " is not valid: expected [0, " + MAX_TOPIC_SYS_FLAG + "] (1 unit, 2 unit subscription)");
        }
        String filterType = headers.optionalString("topicFilterType", TopicConfig.SINGLE_TAG);
        if (!filterType.equals("SINGLE_TAG") && !filterType.equals("MULTI_TAG")) {
            return Responses.error(request, ResponseCode.INVALID_PARAMETER,
                    "topicFilterType must be SINGLE_TAG or MULTI_TAG: " + filterType);
        }
        Map<String, String> attributes = new LinkedHashMap<>(existing.map(TopicConfig::attributes).orElse(Map.of()));
        applyAttributes(headers.optionalString("attributes", ""), attributes);
        Optional<String> attributeProblem = attributeProblem(attributes);
        if (attributeProblem.isPresent()) {
            return Responses.error(request, ResponseCode.INVALID_PARAMETER, attributeProblem.get());
        }
        TopicConfig config = new TopicConfig(topic, read, write, perm, filterType, sysFlag,
                headers.optionalBoolean("order", false), attributes);
        metadata.topics().upsert(config);
        return Responses.success(request);
    }

    private RemotingCommand delete(RemotingCommand request) {
        String topic = request.headers().optionalString("topic", "");
        if (topic.isBlank()) {
            return Responses.error(request, ResponseCode.INVALID_PARAMETER, "The specified topic is blank.");
        }
        if (SystemTopics.isSystemTopic(identity, topic)) {
            return Responses.error(request, ResponseCode.INVALID_PARAMETER,
                    "The topic[" + topic + "] is conflict with system topic.");
        }
        metadata.topics().delete(topic);
        metadata.consumerOffsets().removeTopic(topic);
        store.deleteTopicQueues(topic);
        return Responses.success(request);
    }

    private RemotingCommand get(RemotingCommand request) {
        String topic = request.headers().requireString("topic");
        return metadata.topics().get(topic)
                .map(config -> Responses.json(request, config))
                .orElseGet(() -> Responses.error(request, ResponseCode.TOPIC_NOT_EXIST,
                        "No topic in this broker. topic: " + topic));
    }

    private static Optional<String> attributeProblem(Map<String, String> attributes) {
        if (attributes.size() > MAX_ATTRIBUTES) {
            return Optional.of("a topic has at most " + MAX_ATTRIBUTES + " attributes: " + attributes.size());
        }
        for (Map.Entry<String, String> attribute : attributes.entrySet()) {
            if (attribute.getKey().length() > MAX_ATTRIBUTE_LENGTH || attribute.getValue().length() > MAX_ATTRIBUTE_LENGTH) {
                return Optional.of("topic attribute " + attribute.getKey() + " is longer than " + MAX_ATTRIBUTE_LENGTH
                        + " characters (key or value)");
            }
        }
        return Optional.empty();
    }

    /** Applies {@code +key=value,-key} attribute edits, as mqadmin sends them. */
    private static void applyAttributes(String text, Map<String, String> attributes) {
        for (String entry : text.split(",")) {
            String item = entry.trim();
            if (item.startsWith("+") && item.indexOf('=') > 1) {
                int eq = item.indexOf('=');
                attributes.put(item.substring(1, eq), item.substring(eq + 1));
            } else if (item.startsWith("-") && item.length() > 1) {
                attributes.remove(item.substring(1));
            }
        }
    }
}
