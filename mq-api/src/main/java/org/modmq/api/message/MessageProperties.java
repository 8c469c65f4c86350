package org.modmq.api.message;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Names of well-known message properties and the properties string codec: each pair is
 * {@code name \u0001 value \u0002}, the last pair included. Decoding skips pairs with an empty name or
 * value and lets a later duplicate win, as the RocketMQ client does.
 */
public final class MessageProperties {

    public static final String TAGS = "TAGS";
    public static final String KEYS = "KEYS";
    public static final String UNIQ_KEY = "UNIQ_KEY";
    public static final String WAIT = "WAIT";
    public static final String DELAY = "DELAY";
    public static final String CLUSTER = "CLUSTER";
    public static final String MSG_REGION = "MSG_REGION";
    public static final String TRACE_ON = "TRACE_ON";
    public static final String REAL_TOPIC = "REAL_TOPIC";
    public static final String REAL_QID = "REAL_QID";
    public static final String RETRY_TOPIC = "RETRY_TOPIC";
    public static final String ORIGIN_MESSAGE_ID = "ORIGIN_MESSAGE_ID";
    public static final String TRAN_MSG = "TRAN_MSG";

    /** Separates a name from its value. */
    public static final char NAME_VALUE_SEPARATOR = '\u0001';
    /** Ends each pair. */
    public static final char PROPERTY_SEPARATOR = '\u0002';

    private MessageProperties() {
    }

    /** Encodes in iteration order; an empty map gives an empty string. */
    public static String encode(Map<String, String> properties) {
        StringBuilder out = new StringBuilder(properties.size() * 16);
        properties.forEach((name, value) -> out.append(name).append(NAME_VALUE_SEPARATOR)
                .append(value).append(PROPERTY_SEPARATOR));
        return out.toString();
    }

    /** Decodes a properties string; never null, insertion-ordered. */
    public static Map<String, String> decode(String encoded) {
        Map<String, String> properties = new LinkedHashMap<>();
        if (encoded == null || encoded.isEmpty()) {
            return properties;
        }
        int start = 0;
        while (start < encoded.length()) {
            int end = encoded.indexOf(PROPERTY_SEPARATOR, start);
            if (end < 0) {
                end = encoded.length();
            }
            int split = encoded.indexOf(NAME_VALUE_SEPARATOR, start);
            if (split > start && split < end - 1) {
                properties.put(encoded.substring(start, split), encoded.substring(split + 1, end));
            }
            start = end + 1;
        }
        return properties;
    }

    /**
     * The value {@link #decode} gives {@code name} (the last of repeated entries), read from the string
     * without building the map; {@code null} when absent.
     */
    public static String value(String encoded, String name) {
        String found = null;
        if (encoded == null) {
            return null;
        }
        int start = 0;
        while (start < encoded.length()) {
            int end = encoded.indexOf(PROPERTY_SEPARATOR, start);
            if (end < 0) {
                end = encoded.length();
            }
            int split = start + name.length();
            // Names hold no separator, so a match here is the entry's first separator, as decode splits it.
            if (split > start && split < end - 1 && encoded.charAt(split) == NAME_VALUE_SEPARATOR
                    && encoded.startsWith(name, start)) {
                found = encoded.substring(split + 1, end);
            }
            start = end + 1;
        }
        return found;
    }

    /** The ConsumeQueue tag code of a {@code TAGS} value: its String hash, 0 without a tag. */
    public static long tagsCode(String tags) {
        return tags == null || tags.isEmpty() ? 0L : tags.hashCode();
    }
}
