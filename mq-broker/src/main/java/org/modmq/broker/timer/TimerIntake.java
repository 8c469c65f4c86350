package org.modmq.broker.timer;

import java.time.Clock;
import java.util.Map;
import java.util.Objects;
import org.modmq.api.message.BrokerMessage;
import org.modmq.api.message.MessageProperties;
import org.modmq.broker.config.TimerConfig;
import org.modmq.remoting.protocol.ResponseCode;
import org.modmq.remoting.protocol.ResponseCodeException;

/**
 * The send hook for timer messages, with RocketMQ 5.3.3's rules: a message carrying
 * {@code TIMER_DELAY_SEC}, {@code TIMER_DELAY_MS} or {@code TIMER_DELIVER_MS} (checked in that order)
 * whose delivery time is in the future is stored into {@code rmq_sys_wheel_timer} queue 0 with
 * {@code TIMER_OUT_MS} (the delivery time rounded down to {@code timerPrecisionMs}, one slot earlier when
 * it is an exact multiple, so the slot ends at the asked time), {@code REAL_TOPIC} and {@code REAL_QID}.
 * A delivery time now or in the past leaves the message as it is (stored into its topic at once). A
 * delay above {@code timerMaxDelaySec} or an unparsable value is refused with MESSAGE_ILLEGAL;
 * {@code timerWheelEnable=false} refuses every timer message with SYSTEM_ERROR. A message that also has
 * a delay level ({@code DELAY} &gt; 0) loses its timer properties and is left to the delay level.
 * Half (prepared) and rolled-back transactional messages are not touched. Stateless and thread-safe.
 */
public final class TimerIntake {

    private static final int TRANSACTION_MASK = 0xC;
    private static final int PREPARED = 0x4;
    private static final int ROLLBACK = 0xC;

    private final TimerConfig config;
    private final Clock clock;

    public TimerIntake(TimerConfig config, Clock clock) {
        this.config = Objects.requireNonNull(config, "config");
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    /**
     * The message to store for {@code message}: itself, or its copy for the timer topic.
     *
     * @throws ResponseCodeException MESSAGE_ILLEGAL or SYSTEM_ERROR as described on the class
     */
    public BrokerMessage redirect(BrokerMessage message) {
        int transaction = message.sysFlag() & TRANSACTION_MASK;
        if (transaction == PREPARED || transaction == ROLLBACK || TimerProperties.TOPIC.equals(message.topic())
                || !TimerProperties.mayRequest(message.properties())) {
            return message;
        }
        Map<String, String> properties = message.propertyMap();
        if (!TimerProperties.requested(properties) || properties.containsKey(TimerProperties.OUT_MS)) {
            return message;
        }
        if (delayLevel(properties) > 0) {
            properties.remove(TimerProperties.DELIVER_MS);
            properties.remove(TimerProperties.DELAY_MS);
            properties.remove(TimerProperties.DELAY_SEC);
            return with(message, message.topic(), message.queueId(), properties);
        }
        if (!config.wheelEnable()) {
            throw new ResponseCodeException(ResponseCode.SYSTEM_ERROR,
                    "accurate timer message is not enabled, timerWheelEnable is false");
        }
        long now = clock.millis();
        long deliverMs = deliverMs(properties, now);
        if (deliverMs <= now) {
            if (properties.containsKey(TimerProperties.DEL_UNIQKEY)) {
                throw illegal();
            }
            return message;
        }
        if (deliverMs - now > config.maxDelaySec() * 1000L) {
            throw illegal();
        }
        if (properties.containsKey(TimerProperties.DEL_UNIQKEY)) {
            throw new ResponseCodeException(ResponseCode.MESSAGE_ILLEGAL,
                    "timer message illegal, recalling a timer message (TIMER_DEL_UNIQKEY) is not supported");
        }
        properties.put(TimerProperties.OUT_MS, Long.toString(slotOf(deliverMs, config.precisionMs())));
        properties.put(TimerProperties.REAL_TOPIC, message.topic());
        properties.put(TimerProperties.REAL_QID, Integer.toString(message.queueId()));
        return with(message, TimerProperties.TOPIC, 0, properties);
    }

    /** RocketMQ's rounding: the slot that ends at or just after {@code deliverMs}. */
    static long slotOf(long deliverMs, int precisionMs) {
        return deliverMs % precisionMs == 0 ? deliverMs - precisionMs : deliverMs / precisionMs * precisionMs;
    }

    private static long deliverMs(Map<String, String> properties, long now) {
        String key = properties.containsKey(TimerProperties.DELAY_SEC) ? TimerProperties.DELAY_SEC
                : properties.containsKey(TimerProperties.DELAY_MS) ? TimerProperties.DELAY_MS : TimerProperties.DELIVER_MS;
        String value = properties.get(key);
        try {
            long parsed = Long.parseLong(value.trim());
            return switch (key) {
                case TimerProperties.DELAY_SEC -> Math.addExact(now, Math.multiplyExact(parsed, 1000L));
                case TimerProperties.DELAY_MS -> Math.addExact(now, parsed);
                default -> parsed;
            };
        } catch (NumberFormatException | ArithmeticException e) {
            throw new ResponseCodeException(ResponseCode.MESSAGE_ILLEGAL,
                    "timer message illegal, " + key + "=" + value + " is not a time in ms (or s) as a long integer");
        }
    }

    private ResponseCodeException illegal() {
        return new ResponseCodeException(ResponseCode.MESSAGE_ILLEGAL, "timer message illegal, the delay time should "
                + "not be bigger than the max delay " + config.maxDelaySec() * 1000L + "ms; or if set del msg, the "
                + "delay time should be bigger than the current time");
    }

    private static int delayLevel(Map<String, String> properties) {
        String level = properties.get(TimerProperties.DELAY_LEVEL);
        if (level == null) {
            return 0;
        }
        try {
            return Integer.parseInt(level.trim());
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    private static BrokerMessage with(BrokerMessage message, String topic, int queueId, Map<String, String> properties) {
        return new BrokerMessage(topic, queueId, message.flag(), message.body(), MessageProperties.encode(properties),
                message.bornTimestamp(), message.bornHost(), message.storeHost(), message.sysFlag(),
                message.reconsumeTimes(), message.preparedTransactionOffset());
    }
}
