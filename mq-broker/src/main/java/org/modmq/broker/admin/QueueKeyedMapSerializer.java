package org.modmq.broker.admin;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonSerializer;
import com.fasterxml.jackson.databind.SerializerProvider;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Comparator;
import java.util.Map;
import org.modmq.broker.admin.AdminBodies.MessageQueue;
import org.modmq.remoting.protocol.Json;

/**
 * Writes a {@code MessageQueue}-keyed table the way fastjson writes RocketMQ's own: each key is the
 * queue's JSON object, unquoted ({@code {{"brokerName":"b","queueId":0,"topic":"t"}:{…}}}). It is not
 * standard JSON, but it is the one form both fastjson (clients up to 5.3) and fastjson2 (5.5) read
 * back into {@code MessageQueue} keys; a quoted key holding the queue's JSON is read by fastjson only.
 * Entries are written in queue order (topic, broker name, queue id). Stateless.
 */
public final class QueueKeyedMapSerializer extends JsonSerializer<Map<MessageQueue, ?>> {

    private static final Comparator<MessageQueue> ORDER = Comparator.comparing(MessageQueue::topic)
            .thenComparing(MessageQueue::brokerName).thenComparingInt(MessageQueue::queueId);

    @Override
    public void serialize(Map<MessageQueue, ?> table, JsonGenerator generator, SerializerProvider provider)
            throws IOException {
        StringBuilder text = new StringBuilder("{");
        table.entrySet().stream().sorted(Map.Entry.comparingByKey(ORDER)).forEach(entry -> {
            if (text.length() > 1) {
                text.append(',');
            }
            text.append(json(entry.getKey())).append(':').append(json(entry.getValue()));
        });
        generator.writeRawValue(text.append('}').toString());
    }

    private static String json(Object value) {
        return new String(Json.encode(value), StandardCharsets.UTF_8);
    }
}
