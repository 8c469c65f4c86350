package org.modmq.broker.data;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import org.modmq.remoting.netty.RemotingChannel;
import org.modmq.remoting.netty.RequestProcessor;
import org.modmq.remoting.protocol.Json;
import org.modmq.remoting.protocol.RemotingCommand;
import org.modmq.remoting.protocol.RequestCode;
import org.modmq.remoting.protocol.ResponseCode;
import org.modmq.remoting.protocol.ResponseCodeException;

/**
 * LOCK_BATCH_MQ (41) and UNLOCK_BATCH_MQ (42) for orderly consumers (docs/protocol.md section 9.3): per group a
 * table queue → (clientId, last update); a lock is granted when free, held by the same client or
 * expired (60 s), and refreshed when granted again. Thread-safe (one monitor per group).
 */
public final class QueueLockProcessor implements RequestProcessor.Sync {

    public static final int[] CODES = {RequestCode.LOCK_BATCH_MQ, RequestCode.UNLOCK_BATCH_MQ};

    static final long LOCK_MAX_LIVE_MILLIS = 60_000;

    /** A message queue as the lock bodies carry it. */
    public record MessageQueue(String topic, String brokerName, int queueId) {
    }

    /** LOCK_BATCH_MQ answer body. */
    public record LockBatchResponseBody(List<MessageQueue> lockOKMQSet) {
    }

    private record Owner(String clientId, long updatedMillis) {
    }

    private final Clock clock;
    private final Map<String, Map<MessageQueue, Owner>> groups = new ConcurrentHashMap<>();

    public QueueLockProcessor(Clock clock) {
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    @Override
    public RemotingCommand process(RemotingChannel channel, RemotingCommand request) {
        JsonNode body = parse(request.body());
        String group = text(body, "consumerGroup");
        String clientId = text(body, "clientId");
        List<MessageQueue> queues = new ArrayList<>();
        for (JsonNode mq : body.path("mqSet")) {
            queues.add(new MessageQueue(mq.path("topic").asText(), mq.path("brokerName").asText(),
                    mq.path("queueId").asInt()));
        }
        Map<MessageQueue, Owner> table = groups.computeIfAbsent(group, g -> new ConcurrentHashMap<>());
        long now = clock.millis();
        RemotingCommand response = RemotingCommand.responseTo(request, ResponseCode.SUCCESS, null);
        synchronized (table) {
            if (request.code() == RequestCode.UNLOCK_BATCH_MQ) {
                queues.forEach(mq -> table.computeIfPresent(mq, (k, owner) ->
                        owner.clientId().equals(clientId) ? null : owner));
                return response;
            }
            List<MessageQueue> granted = new ArrayList<>();
            for (MessageQueue mq : queues) {
                Owner owner = table.get(mq);
                if (owner == null || owner.clientId().equals(clientId)
                        || now - owner.updatedMillis() > LOCK_MAX_LIVE_MILLIS) {
                    table.put(mq, new Owner(clientId, now));
                    granted.add(mq);
                }
            }
            return response.withBody(Json.encode(new LockBatchResponseBody(granted)));
        }
    }

    /** Whether {@code group} holds any unexpired lock (its retries then go to the DLQ). */
    public boolean hasLocks(String group) {
        Map<MessageQueue, Owner> table = groups.get(group);
        long now = clock.millis();
        return table != null && table.values().stream().anyMatch(o -> now - o.updatedMillis() <= LOCK_MAX_LIVE_MILLIS);
    }

    private static JsonNode parse(byte[] body) {
        try {
            return Json.mapper().readTree(body);
        } catch (IOException e) {
            throw new ResponseCodeException(ResponseCode.SYSTEM_ERROR, "bad lock body: " + e.getMessage());
        }
    }

    private static String text(JsonNode body, String field) {
        String value = body.path(field).asText("");
        if (value.isEmpty()) {
            throw new ResponseCodeException(ResponseCode.SYSTEM_ERROR, "the lock body lacks " + field);
        }
        return value;
    }
}
