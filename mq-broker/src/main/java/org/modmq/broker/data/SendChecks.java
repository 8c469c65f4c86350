package org.modmq.broker.data;

import java.util.Map;
import org.modmq.api.message.MessageProperties;
import org.modmq.api.message.MessageSysFlag;
import org.modmq.broker.metadata.TopicValidator;
import org.modmq.remoting.protocol.ResponseCode;
import org.modmq.remoting.protocol.ResponseCodeException;

/**
 * What a send must pass before anything is created or stored, with the rules of RocketMQ's send
 * processor and store (each refusal is MESSAGE_ILLEGAL, 13):
 * <ul>
 *   <li>{@code maxMessageSize} bounds the body of a single message, and the whole body of a batch
 *       (its encoded messages), not the stored record; the remark is RocketMQ's;</li>
 *   <li>a negative {@code sysFlag}, or one with {@code INNER_BATCH} (0x80) or {@code NEED_UNWRAP} (0x40),
 *       is refused: RocketMQ sets those two only for topics with a batch consume queue, which modmq
 *       does not have, and refuses an inner batch on any other topic;</li>
 *   <li>a batch must not be transactional (RocketMQ's store refuses it) nor go to a {@code %RETRY%}
 *       topic (RocketMQ's batch processor refuses it);</li>
 *   <li>the properties the broker acts on must parse: {@code DELAY} an integer &gt;= 0,
 *       {@code TIMER_DELIVER_MS}, {@code TIMER_DELAY_MS} and {@code TIMER_DELAY_SEC} integers &gt;= 0
 *       (seconds that fit in a long of ms); {@code INNER_NUM} only on an inner batch, so never.</li>
 * </ul>
 * Stateless and thread-safe.
 */
final class SendChecks {

    private static final String INNER_NUM = "INNER_NUM";
    private static final String[] TIMER_LONGS = {"TIMER_DELIVER_MS", "TIMER_DELAY_MS"};
    private static final String TIMER_DELAY_SEC = "TIMER_DELAY_SEC";

    private SendChecks() {
    }

    /** RocketMQ's answer to a body (or properties) beyond the limits. */
    static ResponseCodeException tooLarge(int maxMessageSize, String detail) {
        return new ResponseCodeException(ResponseCode.MESSAGE_ILLEGAL, "the message is illegal, maybe msg body or "
                + "properties length not matched. msg body length limit " + maxMessageSize + "B, msg properties "
                + "length limit 32KB. (" + detail + ")");
    }

    /** A single message's body, or a batch's whole body, against {@code maxMessageSize}. */
    static void bodySize(int bodyLength, boolean batch, int maxMessageSize) {
        if (bodyLength > maxMessageSize) {
            throw tooLarge(maxMessageSize, (batch ? "batch body " : "body ") + bodyLength + " bytes > maxMessageSize "
                    + maxMessageSize);
        }
    }

    /** The header's {@code sysFlag}. */
    static void sysFlag(int sysFlag, boolean batch) {
        if (sysFlag < 0) {
            throw illegal("sysFlag " + sysFlag + " is negative");
        }
        if ((sysFlag & (MessageSysFlag.INNER_BATCH | MessageSysFlag.NEED_UNWRAP)) != 0) {
            throw illegal("sysFlag " + sysFlag + " carries INNER_BATCH (0x80) or NEED_UNWRAP (0x40), which only "
                    + "topics with a batch consume queue take; this broker has none");
        }
        if (batch && MessageSysFlag.transactionType(sysFlag) != MessageSysFlag.TRANSACTION_NOT_TYPE) {
            throw illegal("a batch cannot be transactional (sysFlag " + sysFlag + ")");
        }
    }

    /** A batch's topic. */
    static void batchTopic(String topic) {
        if (TopicValidator.isRetryTopic(topic)) {
            throw illegal("batch request does not support retry group " + topic);
        }
    }

    /** The system properties of one message (for a batch: each message with the batch's own). */
    static void properties(Map<String, String> properties) {
        String delay = properties.get(MessageProperties.DELAY);
        if (delay != null && parse(delay) < 0) {
            throw illegal("the property DELAY=" + delay + " is not a delay level (an integer >= 0)");
        }
        for (String key : TIMER_LONGS) {
            String value = properties.get(key);
            if (value != null && parse(value) < 0) {
                throw illegal("timer message illegal, " + key + "=" + value + " is not a time in ms (an integer >= 0)");
            }
        }
        String seconds = properties.get(TIMER_DELAY_SEC);
        if (seconds != null) {
            long parsed = parse(seconds);
            if (parsed < 0 || parsed > Long.MAX_VALUE / 1000) {
                throw illegal("timer message illegal, " + TIMER_DELAY_SEC + "=" + seconds
                        + " is not a delay in seconds (an integer >= 0)");
            }
        }
        if (properties.containsKey(INNER_NUM)) {
            throw illegal("the property INNER_NUM belongs to inner batches, which this broker does not take");
        }
    }

    /** The value as a long, or -1 when it is not one. */
    private static long parse(String value) {
        try {
            return Long.parseLong(value.trim());
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    private static ResponseCodeException illegal(String why) {
        return new ResponseCodeException(ResponseCode.MESSAGE_ILLEGAL, "the message is illegal: " + why);
    }
}
