package org.modmq.store;

import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import org.modmq.api.message.BrokerMessage;
import org.modmq.api.message.MessageProperties;

/** Builds test messages. */
public final class TestMessages {

    public static final InetSocketAddress BORN = new InetSocketAddress("127.0.0.1", 51192);
    public static final InetSocketAddress STORE = new InetSocketAddress("127.0.0.1", 20911);

    private TestMessages() {
    }

    public static BrokerMessage message(String topic, int queueId, String body, String tags, String keys) {
        Map<String, String> props = new LinkedHashMap<>();
        if (tags != null) {
            props.put(MessageProperties.TAGS, tags);
        }
        if (keys != null) {
            props.put(MessageProperties.KEYS, keys);
        }
        props.put(MessageProperties.UNIQ_KEY, "UNIQ-" + (body.length() <= 64 ? body : Integer.toHexString(body.hashCode())));
        return new BrokerMessage(topic, queueId, 0, body.getBytes(StandardCharsets.UTF_8),
                MessageProperties.encode(props), 1_700_000_000_000L, BORN, STORE, 0, 0, 0L);
    }

    public static BrokerMessage message(String topic, int queueId, String body) {
        return message(topic, queueId, body, null, null);
    }
}
