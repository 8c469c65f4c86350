package org.modmq.broker.timer;

import java.util.Map;
import java.util.Optional;
import org.modmq.api.message.BrokerMessage;
import org.modmq.api.message.MessageProperties;
import org.modmq.api.message.StoredMessage;

/**
 * Turns a stored {@code rmq_sys_wheel_timer} message back into the message the producer sent, as RocketMQ's
 * dequeue does: topic and queue from {@code REAL_TOPIC} and {@code REAL_QID} (both removed), every other
 * property kept ({@code UNIQ_KEY} too, so consumers see the producer's msgId), plus {@code TIMER_ENQUEUE_MS}
 * and {@code TIMER_DEQUEUE_MS}; body, flag, born and store hosts, sysFlag and reconsume count unchanged.
 * Stateless.
 */
final class TimerDelivery {

    private TimerDelivery() {
    }

    /** The slot time ({@code TIMER_OUT_MS}) of a wheel-topic message, or -1 when it has none or a bad one. */
    static long outMs(StoredMessage stored) {
        if (!TimerProperties.TOPIC.equals(stored.message().topic())) {
            return -1;
        }
        String out = stored.message().propertyMap().get(TimerProperties.OUT_MS);
        try {
            return out == null ? -1 : Long.parseLong(out);
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    /**
     * The message to store into the real topic; empty when {@code stored} is not a whole timer message
     * (no or a bad {@code REAL_TOPIC}/{@code REAL_QID}).
     */
    static Optional<BrokerMessage> restore(StoredMessage stored, long dequeueMs) {
        BrokerMessage timer = stored.message();
        Map<String, String> properties = timer.propertyMap();
        String topic = properties.remove(TimerProperties.REAL_TOPIC);
        String queue = properties.remove(TimerProperties.REAL_QID);
        int queueId;
        try {
            queueId = queue == null ? -1 : Integer.parseInt(queue);
        } catch (NumberFormatException e) {
            queueId = -1;
        }
        if (topic == null || topic.isEmpty() || queueId < 0) {
            return Optional.empty();
        }
        properties.put(TimerProperties.ENQUEUE_MS, Long.toString(stored.storeTimestamp()));
        properties.put(TimerProperties.DEQUEUE_MS, Long.toString(dequeueMs));
        return Optional.of(new BrokerMessage(topic, queueId, timer.flag(), timer.body(),
                MessageProperties.encode(properties), timer.bornTimestamp(), timer.bornHost(), timer.storeHost(),
                timer.sysFlag(), timer.reconsumeTimes(), timer.preparedTransactionOffset()));
    }
}
