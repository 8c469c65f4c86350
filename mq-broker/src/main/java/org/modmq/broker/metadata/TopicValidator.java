package org.modmq.broker.metadata;

import java.util.Optional;
import java.util.Set;

/**
 * RocketMQ's topic and group name rules ({@code TopicValidator}), with its remarks: a name is
 * non-blank and made of {@code %|a-zA-Z0-9_-}; a topic has at most 127 characters, a {@code %RETRY%} or
 * {@code %DLQ%} topic at most 255; a group created by an administrator at most 120 (its retry and
 * dead-letter topics are built from it). Also which names are system topics that users may not
 * create: RocketMQ's set, the {@code rmq_sys_} and {@code RMQ_SYS_} prefixes and the retry and
 * dead-letter prefixes, which only the broker creates. Stateless.
 */
public final class TopicValidator {

    public static final int MAX_LENGTH = 127;
    public static final int RETRY_OR_DLQ_MAX_LENGTH = 255;
    public static final int GROUP_MAX_LENGTH = 120;
    public static final String RETRY_PREFIX = "%RETRY%";
    public static final String DLQ_PREFIX = "%DLQ%";
    public static final String SYSTEM_PREFIX = "rmq_sys_";
    /** The message-trace topic: a system topic, but one that stock clients with tracing send to. */
    public static final String TRACE_TOPIC = "RMQ_SYS_TRACE_TOPIC";
    private static final String LEGAL_CHARACTERS = "^[%|a-zA-Z0-9_-]+$";

    /** RocketMQ's system topics. */
    private static final Set<String> SYSTEM_TOPICS = Set.of(SystemTopics.AUTO_CREATE_TEMPLATE, SystemTopics.SCHEDULE,
            SystemTopics.BENCHMARK, SystemTopics.TRANS_HALF, TRACE_TOPIC, SystemTopics.TRANS_OP_HALF,
            SystemTopics.TRANS_CHECK_MAX_TIME, SystemTopics.SELF_TEST, SystemTopics.OFFSET_MOVED_EVENT,
            "CHECKPOINT_TOPIC");

    /** Topics a producer may not send to directly. */
    private static final Set<String> NOT_ALLOWED_TO_SEND = Set.of(SystemTopics.SCHEDULE,
            SystemTopics.TRANS_HALF, SystemTopics.TRANS_OP_HALF, SystemTopics.TRANS_CHECK_MAX_TIME,
            SystemTopics.SELF_TEST, SystemTopics.OFFSET_MOVED_EVENT);

    private TopicValidator() {
    }

    /** Why {@code topic} is not a legal name (RocketMQ's remark), or empty when it is. */
    public static Optional<String> problem(String topic) {
        if (topic == null || topic.isBlank()) {
            return Optional.of("The specified topic is blank.");
        }
        if (hasIllegalCharacter(topic)) {
            return Optional.of("The specified topic: " + topic + ", contains illegal characters, allowing only "
                    + LEGAL_CHARACTERS);
        }
        if (topic.startsWith(RETRY_PREFIX) || topic.startsWith(DLQ_PREFIX)) {
            if (topic.length() > RETRY_OR_DLQ_MAX_LENGTH) {
                return Optional.of("The specified topic is DLQ or Retry topic: " + topic
                        + ", and it's longer than topic max length: " + RETRY_OR_DLQ_MAX_LENGTH);
            }
        } else if (topic.length() > MAX_LENGTH) {
            return Optional.of("The specified topic: " + topic + ", is longer than topic max length: " + MAX_LENGTH);
        }
        return Optional.empty();
    }

    /** Why {@code group} is not a legal name for UPDATE_AND_CREATE_SUBSCRIPTIONGROUP (RocketMQ's remark). */
    public static Optional<String> groupProblem(String group) {
        return groupProblem(group, GROUP_MAX_LENGTH);
    }

    /**
     * Why {@code group} may not be created on first use (heartbeat, pull, send-back): legal characters
     * and short enough that {@code %RETRY%<group>} is a legal topic.
     */
    public static Optional<String> autoCreatedGroupProblem(String group) {
        return groupProblem(group, RETRY_OR_DLQ_MAX_LENGTH - RETRY_PREFIX.length());
    }

    private static Optional<String> groupProblem(String group, int maxLength) {
        if (group == null || group.isBlank()) {
            return Optional.of("The specified group is blank.");
        }
        if (hasIllegalCharacter(group)) {
            return Optional.of("The specified group: " + group + ", contains illegal characters, allowing only "
                    + LEGAL_CHARACTERS);
        }
        if (group.length() > maxLength) {
            return Optional.of("The specified group: " + group + ", is longer than group max length: " + maxLength);
        }
        return Optional.empty();
    }

    /**
     * Whether {@code topic} is a system name that users may not create (UPDATE_AND_CREATE_TOPIC, a send
     * to an unknown topic): RocketMQ's system topics, the {@code rmq_sys_} and {@code RMQ_SYS_}
     * prefixes, and the {@code %RETRY%} and {@code %DLQ%} prefixes.
     */
    public static boolean isSystemName(String topic) {
        return SYSTEM_TOPICS.contains(topic) || topic.startsWith(SYSTEM_PREFIX) || topic.startsWith("RMQ_SYS_")
                || topic.startsWith(RETRY_PREFIX) || topic.startsWith(DLQ_PREFIX);
    }

    public static boolean isNotAllowedToSend(String topic) {
        return NOT_ALLOWED_TO_SEND.contains(topic);
    }

    public static boolean isRetryTopic(String topic) {
        return topic.startsWith(RETRY_PREFIX);
    }

    public static String retryTopic(String group) {
        return RETRY_PREFIX + group;
    }

    public static String dlqTopic(String group) {
        return DLQ_PREFIX + group;
    }

    private static boolean hasIllegalCharacter(String name) {
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            boolean legal = c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
                    || c == '%' || c == '|' || c == '_' || c == '-';
            if (!legal) {
                return true;
            }
        }
        return false;
    }
}
