package org.modmq.broker.schedule;

import java.util.Map;
import java.util.Objects;
import org.modmq.api.message.DelayLevels;
import org.modmq.api.message.MessageProperties;
import org.modmq.api.message.MessageSysFlag;
import org.modmq.remoting.protocol.ResponseCode;
import org.modmq.remoting.protocol.ResponseCodeException;

/**
 * Where a message with a delay level is stored instead of its topic, as RocketMQ's put hook decides:
 * a plain or committed message whose {@code DELAY} is above 0 goes to SCHEDULE_TOPIC_XXXX queue
 * {@code level - 1} (a level above the highest counts as the highest, and {@code DELAY} says so), with
 * its topic and queue kept in {@code REAL_TOPIC} and {@code REAL_QID}. A delay level wins over timer
 * properties, which are dropped. Stateless apart from the levels; thread-safe.
 */
public final class DelayRedirect {

    /** The timer properties RocketMQ clears from a message that has a delay level. */
    private static final String[] TIMER_PROPERTIES = {"TIMER_DELIVER_MS", "TIMER_DELAY_SEC", "TIMER_DELAY_MS"};

    private final DelayLevels levels;

    public DelayRedirect(DelayLevels levels) {
        this.levels = Objects.requireNonNull(levels, "levels");
    }

    /** Where a message is stored. */
    public record Target(String topic, int queueId) {
    }

    /**
     * The level in {@code properties}; 0 without one.
     *
     * @throws ResponseCodeException MESSAGE_ILLEGAL when {@code DELAY} is not a number
     */
    public static int level(Map<String, String> properties) {
        String value = properties.get(MessageProperties.DELAY);
        if (value == null) {
            return 0;
        }
        try {
            return Integer.parseInt(value.trim());
        } catch (NumberFormatException e) {
            throw new ResponseCodeException(ResponseCode.MESSAGE_ILLEGAL,
                    "the DELAY property '" + value + "' is not a delay level (an integer)");
        }
    }

    /**
     * The target of a message bound for {@code topic}/{@code queueId}: the same, or the schedule queue
     * of its level, in which case {@code properties} gets {@code REAL_TOPIC}, {@code REAL_QID} and the
     * clamped {@code DELAY}, and loses the timer properties.
     *
     * @throws ResponseCodeException MESSAGE_ILLEGAL when {@code DELAY} is not a number
     */
    public Target redirect(String topic, int queueId, Map<String, String> properties, int sysFlag) {
        int type = MessageSysFlag.transactionType(sysFlag);
        if (type != MessageSysFlag.TRANSACTION_NOT_TYPE && type != MessageSysFlag.TRANSACTION_COMMIT_TYPE) {
            return new Target(topic, queueId);
        }
        int level = level(properties);
        if (level <= 0) {
            return new Target(topic, queueId);
        }
        int clamped = levels.clamp(level);
        for (String timer : TIMER_PROPERTIES) {
            properties.remove(timer);
        }
        properties.put(MessageProperties.DELAY, Integer.toString(clamped));
        properties.put(MessageProperties.REAL_TOPIC, topic);
        properties.put(MessageProperties.REAL_QID, Integer.toString(queueId));
        return new Target(DelayLevels.SCHEDULE_TOPIC, levels.queueId(clamped));
    }

    public DelayLevels levels() {
        return levels;
    }
}
