package org.modmq.store.format;

/**
 * Which topic names the store takes: RocketMQ's legal characters ({@code %|a-zA-Z0-9_-}), which the broker
 * already requires of every send. The store checks them too because a topic names a ConsumeQueue
 * directory: a record whose topic is anything else is garbage (the body CRC does not cover the topic),
 * and dispatching it would create a directory named by that garbage, or fail to, as with a NUL
 * character. Stateless.
 */
public final class TopicNames {

    private TopicNames() {
    }

    /** Whether {@code topic} is non-empty and made only of legal characters. */
    public static boolean legal(String topic) {
        if (topic == null || topic.isEmpty()) {
            return false;
        }
        for (int i = 0; i < topic.length(); i++) {
            char c = topic.charAt(i);
            boolean ok = c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '%' || c == '|'
                    || c == '_' || c == '-';
            if (!ok) {
                return false;
            }
        }
        return true;
    }
}
