package org.modmq.broker.metadata;

import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/** Topic-name rules of RocketMQ: non-blank, at most 127 characters of {@code %|a-zA-Z0-9_-}. Stateless. */
public final class TopicValidator {

    public static final int MAX_LENGTH = 127;
    public static final String RETRY_PREFIX = "%RETRY%";
    public static final String DLQ_PREFIX = "%DLQ%";

    private static final Pattern LEGAL = Pattern.compile("^[%|a-zA-Z0-9_-]+$");

    /** Topics a producer may not send to directly. */
    private static final Set<String> NOT_ALLOWED_TO_SEND = Set.of(SystemTopics.SCHEDULE,
            SystemTopics.TRANS_HALF, SystemTopics.TRANS_OP_HALF, SystemTopics.TRANS_CHECK_MAX_TIME,
            SystemTopics.SELF_TEST, SystemTopics.OFFSET_MOVED_EVENT);

    private TopicValidator() {
    }

    /** Why {@code topic} is not a legal name, or empty when it is. */
    public static Optional<String> problem(String topic) {
        if (topic == null || topic.isBlank()) {
            return Optional.of("the topic name is blank");
        }
        if (topic.length() > MAX_LENGTH) {
            return Optional.of("the topic name is longer than " + MAX_LENGTH + " characters");
        }
        if (!LEGAL.matcher(topic).matches()) {
            return Optional.of("the topic name " + topic + " contains characters other than %|a-zA-Z0-9_-");
        }
        return Optional.empty();
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
}
