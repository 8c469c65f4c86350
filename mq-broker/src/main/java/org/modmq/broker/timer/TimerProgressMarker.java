package org.modmq.broker.timer;

import java.net.InetSocketAddress;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import org.modmq.api.message.BrokerMessage;
import org.modmq.api.message.MessageProperties;
import org.modmq.api.message.StoredMessage;

/**
 * The progress marker (modmq only): a one-byte message in {@code rmq_sys_wheel_timer} queue 0 with
 * {@code TAGS=MODMQ_TIMER_PROGRESS}, {@code MODMQ_TIMER_READ_MS} (every slot before it was delivered) and
 * {@code MODMQ_TIMER_QUEUE_OFFSET} (every wheel-topic entry before it was indexed). A master appends one
 * after each checkpoint that covers new work; being in the CommitLog it reaches every replica, which
 * finds it by its tag code without reading the timers around it. Stateless.
 */
final class TimerProgressMarker {

    private static final byte[] BODY = {'p'};

    private TimerProgressMarker() {
    }

    /** The marker for {@code progress} (its queue offset and read time). */
    static BrokerMessage of(TimerCheckpoint progress, long now, InetSocketAddress storeHost) {
        Map<String, String> properties = new LinkedHashMap<>();
        properties.put(MessageProperties.TAGS, TimerProperties.PROGRESS_TAG);
        properties.put(TimerProperties.PROGRESS_READ_MS, Long.toString(progress.readMs()));
        properties.put(TimerProperties.PROGRESS_QUEUE_OFFSET, Long.toString(progress.queueOffset()));
        return new BrokerMessage(TimerProperties.TOPIC, 0, 0, BODY, MessageProperties.encode(properties), now,
                storeHost, storeHost, 0, 0, 0);
    }

    /** The progress a marker carries (geometry fields 0), empty when {@code message} is not one. */
    static Optional<TimerCheckpoint> progressOf(StoredMessage message) {
        Map<String, String> properties = message.message().propertyMap();
        if (!TimerProperties.PROGRESS_TAG.equals(properties.get(MessageProperties.TAGS))) {
            return Optional.empty();
        }
        try {
            return Optional.of(new TimerCheckpoint(0, 0, Long.parseLong(properties.get(TimerProperties.PROGRESS_QUEUE_OFFSET)),
                    Long.parseLong(properties.get(TimerProperties.PROGRESS_READ_MS)), 0));
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
    }
}
