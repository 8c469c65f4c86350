package org.modmq.store.format;

import io.netty.buffer.ByteBuf;

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
            if (!legal(topic.charAt(i))) {
                return false;
            }
        }
        return true;
    }

    /** Whether the {@code length} bytes at {@code at} are legal characters (each one byte in UTF-8). */
    static boolean legal(ByteBuf buf, int at, int length) {
        for (int i = 0; i < length; i++) {
            if (!legal((char) buf.getUnsignedByte(at + i))) {
                return false;
            }
        }
        return true;
    }

    private static boolean legal(char c) {
        return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '%' || c == '|'
                || c == '_' || c == '-';
    }
}
