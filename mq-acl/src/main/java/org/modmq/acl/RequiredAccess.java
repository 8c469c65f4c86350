package org.modmq.acl;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import org.modmq.remoting.protocol.JsonBodyException;
import org.modmq.remoting.protocol.Json;
import org.modmq.remoting.protocol.RequestCode;

/**
 * The resources a request touches and the permission each needs, as RocketMQ's ACL 1.0 derives
 * them: topics by name, consumer groups as their retry topic {@code %RETRY%<group>}.
 *
 * <table>
 * <caption>Request codes and what they need</caption>
 * <tr><th>request</th><th>needs</th></tr>
 * <tr><td>SEND_MESSAGE 10, SEND_REPLY_MESSAGE 324</td><td>{@code topic}: PUB; a {@code %RETRY%} topic:
 *     SUB on the group {@code producerGroup}</td></tr>
 * <tr><td>SEND_MESSAGE_V2 310, SEND_BATCH_MESSAGE 320, SEND_REPLY_MESSAGE_V2 325</td><td>the same with
 *     the short fields {@code b} (topic) and {@code a} (group)</td></tr>
 * <tr><td>CONSUMER_SEND_MSG_BACK 36</td><td>group {@code group}: SUB</td></tr>
 * <tr><td>PULL_MESSAGE 11, LITE_PULL_MESSAGE 361</td><td>{@code topic}: SUB, group {@code consumerGroup}:
 *     SUB</td></tr>
 * <tr><td>QUERY_MESSAGE 12</td><td>{@code topic}: SUB</td></tr>
 * <tr><td>HEART_BEAT 34</td><td>each consumer group of the body: SUB, each topic it subscribes: SUB</td></tr>
 * <tr><td>UNREGISTER_CLIENT 35, GET_CONSUMER_LIST_BY_GROUP 38</td><td>group {@code consumerGroup}: SUB</td></tr>
 * <tr><td>UPDATE_CONSUMER_OFFSET 15</td><td>group {@code consumerGroup}: SUB, {@code topic}: SUB</td></tr>
 * <tr><td>anything else</td><td>no resource (signature, and admin for {@link AdminCodes})</td></tr>
 * </table>
 *
 * Batch sends (320), replies and lite pulls are modmq's additions: RocketMQ 4.9 checks none of them.
 * Stateless.
 */
public final class RequiredAccess {

    /** RocketMQ's prefix of a group's retry topic. */
    public static final String RETRY_PREFIX = "%RETRY%";

    private RequiredAccess() {
    }

    /** @return {@code %RETRY%<group>}, the resource name of a consumer group */
    public static String retryTopic(String group) {
        return RETRY_PREFIX + group;
    }

    /** @return whether the resource names a group */
    public static boolean isGroup(String resource) {
        return resource.startsWith(RETRY_PREFIX);
    }

    /**
     * @param request the request
     * @return resource to needed bits, in the order found; empty when the code needs none
     * @throws AclDeniedException when the HEART_BEAT body cannot be read
     */
    public static Map<String, Byte> of(AccessRequest request) {
        Map<String, String> fields = request.extFields();
        Map<String, Byte> needed = new LinkedHashMap<>();
        switch (request.code()) {
            case RequestCode.SEND_MESSAGE, RequestCode.SEND_REPLY_MESSAGE ->
                    send(needed, fields.get("topic"), fields.get("producerGroup"));
            case RequestCode.SEND_MESSAGE_V2, RequestCode.SEND_BATCH_MESSAGE, RequestCode.SEND_REPLY_MESSAGE_V2 ->
                    send(needed, fields.get("b"), fields.get("a"));
            case RequestCode.CONSUMER_SEND_MSG_BACK -> group(needed, fields.get("group"));
            case RequestCode.PULL_MESSAGE, RequestCode.LITE_PULL_MESSAGE -> {
                put(needed, fields.get("topic"), AclPermission.SUB);
                group(needed, fields.get("consumerGroup"));
            }
            case RequestCode.QUERY_MESSAGE -> put(needed, fields.get("topic"), AclPermission.SUB);
            case RequestCode.HEART_BEAT -> heartbeat(needed, request.body());
            case RequestCode.UNREGISTER_CLIENT, RequestCode.GET_CONSUMER_LIST_BY_GROUP ->
                    group(needed, fields.get("consumerGroup"));
            case RequestCode.UPDATE_CONSUMER_OFFSET -> {
                group(needed, fields.get("consumerGroup"));
                put(needed, fields.get("topic"), AclPermission.SUB);
            }
            default -> {
                return Collections.emptyMap();
            }
        }
        return needed;
    }

    private static void send(Map<String, Byte> needed, String topic, String group) {
        if (topic != null && isGroup(topic)) {
            group(needed, group);
        } else {
            put(needed, topic, AclPermission.PUB);
        }
    }

    private static void group(Map<String, Byte> needed, String group) {
        if (group != null && !group.isEmpty()) {
            put(needed, retryTopic(group), AclPermission.SUB);
        }
    }

    private static void put(Map<String, Byte> needed, String resource, byte bits) {
        if (resource != null && !resource.isEmpty()) {
            needed.merge(resource, bits, (a, b) -> (byte) (a | b));
        }
    }

    private static void heartbeat(Map<String, Byte> needed, byte[] body) {
        JsonNode root;
        try {
            root = body.length == 0 ? null : Json.tree(body);
        } catch (JsonBodyException | IllegalArgumentException e) {
            throw new AclDeniedException("Heartbeat body cannot be read for the ACL check: " + e.getMessage());
        }
        if (root == null) {
            return;
        }
        for (JsonNode consumer : root.path("consumerDataSet")) {
            group(needed, consumer.path("groupName").asText(null));
            for (JsonNode subscription : consumer.path("subscriptionDataSet")) {
                put(needed, subscription.path("topic").asText(null), AclPermission.SUB);
            }
        }
    }
}
