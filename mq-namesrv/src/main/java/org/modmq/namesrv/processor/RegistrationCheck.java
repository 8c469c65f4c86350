package org.modmq.namesrv.processor;

import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.modmq.remoting.protocol.body.RegisterBrokerBody;
import org.modmq.remoting.protocol.body.TopicConfig;

/**
 * The bounds of {@link RequestLimits} on one REGISTER_BROKER: its header names and addresses, and
 * the topics and filter servers of its decoded body. A registration that fails any of them is refused
 * whole, before the route table sees it. Stateless apart from the limits; thread-safe.
 */
final class RegistrationCheck {

    /** Beyond any RocketMQ broker: its queue counts are ints, real topics have a few hundred at most. */
    static final int MAX_QUEUE_NUMS = 65_536;
    private static final int MAX_FILTER_SERVERS = 1_024;
    private static final int MAX_ATTRIBUTES = 64;

    private final RequestLimits limits;

    RegistrationCheck(RequestLimits limits) {
        this.limits = Objects.requireNonNull(limits, "limits");
    }

    /** Why a body of {@code length} bytes is refused before it is parsed, or empty. */
    Optional<String> bodyProblem(int length) {
        return length > limits.maxBodyBytes()
                ? Optional.of("registration body of " + length + " bytes is larger than "
                        + RequestLimits.MAX_BODY_BYTES + "=" + limits.maxBodyBytes())
                : Optional.empty();
    }

    /** Why a header value is refused, or empty; {@code value} may be null for optional fields. */
    Optional<String> nameProblem(String field, String value) {
        if (value != null && value.length() > limits.maxNameLength()) {
            return Optional.of(field + " is " + value.length() + " characters long, more than "
                    + RequestLimits.MAX_NAME_LENGTH + "=" + limits.maxNameLength());
        }
        return Optional.empty();
    }

    /** Why the decoded body is refused, or empty. */
    Optional<String> bodyProblem(RegisterBrokerBody body) {
        List<String> filters = body.filterServerList();
        if (filters != null) {
            if (filters.size() > MAX_FILTER_SERVERS) {
                return Optional.of("filterServerList has " + filters.size() + " entries, more than " + MAX_FILTER_SERVERS);
            }
            for (String filter : filters) {
                Optional<String> problem = nameProblem("a filter server address", filter);
                if (problem.isPresent()) {
                    return problem;
                }
            }
        }
        Map<String, TopicConfig> topics = body.topicConfigSerializeWrapper() == null ? null
                : body.topicConfigSerializeWrapper().topicConfigTable();
        if (topics == null) {
            return Optional.empty();
        }
        if (topics.size() > limits.maxTopics()) {
            return Optional.of("registration carries " + topics.size() + " topics, more than "
                    + RequestLimits.MAX_TOPICS + "=" + limits.maxTopics());
        }
        for (Map.Entry<String, TopicConfig> entry : topics.entrySet()) {
            Optional<String> problem = topicProblem(entry.getKey(), entry.getValue());
            if (problem.isPresent()) {
                return problem;
            }
        }
        return Optional.empty();
    }

    private Optional<String> topicProblem(String key, TopicConfig topic) {
        if (key == null || key.isBlank()) {
            return Optional.of("a topic of the registration has a blank name");
        }
        if (key.length() > limits.maxNameLength()) {
            return Optional.of("topic " + key.substring(0, 64) + "... is " + key.length() + " characters long, more than "
                    + RequestLimits.MAX_NAME_LENGTH + "=" + limits.maxNameLength());
        }
        if (topic == null) {
            return Optional.empty();
        }
        if (topic.topicName() != null && !topic.topicName().equals(key)) {
            return Optional.of("topic " + key + " names itself " + topic.topicName());
        }
        if (!inRange(topic.readQueueNums()) || !inRange(topic.writeQueueNums())) {
            return Optional.of("topic " + key + " has readQueueNums=" + topic.readQueueNums() + " writeQueueNums="
                    + topic.writeQueueNums() + ", expected each in [0, " + MAX_QUEUE_NUMS + "]");
        }
        if (topic.perm() < 0 || topic.perm() > 15) {
            return Optional.of("topic " + key + " has perm=" + topic.perm() + ", expected [0, 15]");
        }
        if (topic.attributes() != null && topic.attributes().size() > MAX_ATTRIBUTES) {
            return Optional.of("topic " + key + " has " + topic.attributes().size() + " attributes, more than "
                    + MAX_ATTRIBUTES);
        }
        return Optional.empty();
    }

    private static boolean inRange(int queueNums) {
        return queueNums >= 0 && queueNums <= MAX_QUEUE_NUMS;
    }
}
