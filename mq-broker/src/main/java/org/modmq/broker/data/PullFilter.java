package org.modmq.broker.data;

import java.util.HashSet;
import java.util.Set;
import java.util.function.LongPredicate;
import org.modmq.broker.client.ConsumerGroupView;
import org.modmq.broker.client.SubscriptionData;
import org.modmq.broker.metadata.SubscriptionGroupConfig;
import org.modmq.remoting.protocol.ResponseCode;
import org.modmq.remoting.protocol.ResponseCodeException;

/**
 * The tag filter of a pull (docs/protocol.md section 8.2 step 4, and 6.1): from the request's {@code subscription}
 * when the SUBSCRIPTION bit is set, else from what the group's heartbeats registered. {@code *} or an
 * empty expression matches every tag code; otherwise a tag code matches when the subscription's code
 * set contains it (as an int). Stateless.
 */
final class PullFilter {

    private static final LongPredicate ALL = code -> true;

    private PullFilter() {
    }

    /** From the request's own expression. @throws ResponseCodeException for SQL92 (not supported) */
    static LongPredicate fromExpression(String expression, String expressionType) {
        if (expressionType != null && !"TAG".equalsIgnoreCase(expressionType)) {
            throw new ResponseCodeException(ResponseCode.SYSTEM_ERROR,
                    "The broker does not support consumer to filter message by " + expressionType);
        }
        if (expression == null || expression.isBlank() || expression.trim().equals("*")) {
            return ALL;
        }
        Set<Integer> codes = new HashSet<>();
        for (String tag : expression.split("\\|\\|")) {
            String trimmed = tag.trim();
            if (!trimmed.isEmpty()) {
                codes.add(trimmed.hashCode());
            }
        }
        if (codes.isEmpty()) {
            throw new ResponseCodeException(ResponseCode.SUBSCRIPTION_PARSE_FAILED,
                    "parse the consumer's subscription[" + expression + "] failed");
        }
        return code -> codes.contains((int) code);
    }

    /**
     * From the group's heartbeat data.
     *
     * @throws ResponseCodeException 24 without heartbeat data or subscription for the topic, 16 for a
     *     broadcasting group that may not, 25 for an older subscription than the request's
     */
    static LongPredicate fromHeartbeats(ConsumerGroupView group, SubscriptionGroupConfig config, String topic,
                                        long subVersion) {
        if (group == null) {
            throw new ResponseCodeException(ResponseCode.SUBSCRIPTION_NOT_EXIST,
                    "the consumer's group info not exist");
        }
        if (group.isBroadcasting() && !config.consumeBroadcastEnable()) {
            throw new ResponseCodeException(ResponseCode.NO_PERMISSION,
                    "the consumer group[" + group.groupName() + "] can not consume by broadcast way");
        }
        SubscriptionData subscription = group.subscriptions().get(topic);
        if (subscription == null) {
            throw new ResponseCodeException(ResponseCode.SUBSCRIPTION_NOT_EXIST,
                    "the consumer's subscription not exist");
        }
        if (subscription.subVersion() < subVersion) {
            throw new ResponseCodeException(ResponseCode.SUBSCRIPTION_NOT_LATEST,
                    "the consumer's subscription not latest");
        }
        if (!"TAG".equalsIgnoreCase(subscription.expressionType())) {
            throw new ResponseCodeException(ResponseCode.SYSTEM_ERROR,
                    "The broker does not support consumer to filter message by " + subscription.expressionType());
        }
        if (subscription.matchesAll()) {
            return ALL;
        }
        Set<Integer> codes = Set.copyOf(subscription.codeSet());
        return code -> codes.contains((int) code);
    }
}
