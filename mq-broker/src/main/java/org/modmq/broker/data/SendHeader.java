package org.modmq.broker.data;

import java.util.Map;
import org.modmq.remoting.protocol.HeaderFields;
import org.modmq.remoting.protocol.RemotingCommand;
import org.modmq.remoting.protocol.RequestCode;

/**
 * The fields of a send request: {@code SendMessageRequestHeader} (code 10, long names) or its V2 form
 * (codes 310 and, with the stock client's default, 320) whose names are the letters {@code a..n}.
 * Immutable.
 */
record SendHeader(String producerGroup, String topic, String defaultTopic, int defaultTopicQueueNums, int queueId,
                  int sysFlag, long bornTimestamp, int flag, String properties, int reconsumeTimes,
                  int maxReconsumeTimes, boolean batch) {

    /** Long name → V2 letter. */
    private static final Map<String, String> SHORT = Map.ofEntries(Map.entry("producerGroup", "a"),
            Map.entry("topic", "b"), Map.entry("defaultTopic", "c"), Map.entry("defaultTopicQueueNums", "d"),
            Map.entry("queueId", "e"), Map.entry("sysFlag", "f"), Map.entry("bornTimestamp", "g"),
            Map.entry("flag", "h"), Map.entry("properties", "i"), Map.entry("reconsumeTimes", "j"),
            Map.entry("unitMode", "k"), Map.entry("maxReconsumeTimes", "l"), Map.entry("batch", "m"));

    /**
     * @throws org.modmq.remoting.protocol.HeaderFieldException naming the (long) field that is missing or
     *     malformed
     */
    static SendHeader parse(RemotingCommand request) {
        boolean v2 = request.code() == RequestCode.SEND_MESSAGE_V2
                || (request.code() != RequestCode.SEND_MESSAGE && request.extFields().containsKey("b")
                && !request.extFields().containsKey("topic"));
        Names n = new Names(request.headers(), v2);
        return new SendHeader(n.string("producerGroup"), n.string("topic"), n.string("defaultTopic"),
                n.integer("defaultTopicQueueNums"), n.integer("queueId"), n.integer("sysFlag"),
                n.longValue("bornTimestamp"), n.integer("flag"), n.optional("properties", ""),
                n.optionalInt("reconsumeTimes", 0), n.optionalInt("maxReconsumeTimes", -1),
                Boolean.parseBoolean(n.optional("batch", "false")));
    }

    /** Reads by long name from either form; errors name the long field (and the letter for V2). */
    private record Names(HeaderFields headers, boolean v2) {

        private String key(String name) {
            return v2 ? SHORT.get(name) : name;
        }

        String string(String name) {
            return headers.requireString(key(name));
        }

        int integer(String name) {
            return headers.requireInt(key(name));
        }

        long longValue(String name) {
            return headers.requireLong(key(name));
        }

        String optional(String name, String defaultValue) {
            return headers.optionalString(key(name), defaultValue);
        }

        int optionalInt(String name, int defaultValue) {
            return headers.optionalInt(key(name), defaultValue);
        }
    }
}
