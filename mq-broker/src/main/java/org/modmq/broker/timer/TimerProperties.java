package org.modmq.broker.timer;

import java.util.Map;

/**
 * The message properties of timer messages, with RocketMQ's names (docs/protocol.md sections 5.4 and 9.5).
 * Stateless.
 */
public final class TimerProperties {

    /** The system topic every accepted timer message is stored into first, queue 0. */
    public static final String TOPIC = "rmq_sys_wheel_timer";

    /** Absolute delivery time in ms, set by {@code Message#setDeliverTimeMs}. */
    public static final String DELIVER_MS = "TIMER_DELIVER_MS";
    /** Relative delay in ms, set by {@code Message#setDelayTimeMs}. */
    public static final String DELAY_MS = "TIMER_DELAY_MS";
    /** Relative delay in seconds, set by {@code Message#setDelayTimeSec}; wins over the other two. */
    public static final String DELAY_SEC = "TIMER_DELAY_SEC";
    /** Set by the broker: the slot time the timer is due at (the delivery time rounded to the precision). */
    public static final String OUT_MS = "TIMER_OUT_MS";
    /** Set on delivery: when the timer was indexed (here: the store time of its wheel-topic record). */
    public static final String ENQUEUE_MS = "TIMER_ENQUEUE_MS";
    /** Set on delivery: when it was delivered. */
    public static final String DEQUEUE_MS = "TIMER_DEQUEUE_MS";
    /** RocketMQ's recall (cancel) marker; not built, a send carrying it is refused. */
    public static final String DEL_UNIQKEY = "TIMER_DEL_UNIQKEY";
    /**
     * modmq only: the {@code TAGS} of the progress marker a master appends to the wheel topic after each
     * checkpoint, so that a replica promoted later knows how far the timers were delivered.
     */
    public static final String PROGRESS_TAG = "MODMQ_TIMER_PROGRESS";
    /** modmq only, on a progress marker: every slot before this time was delivered. */
    public static final String PROGRESS_READ_MS = "MODMQ_TIMER_READ_MS";
    /** modmq only, on a progress marker: every wheel-topic queue offset before this one was indexed. */
    public static final String PROGRESS_QUEUE_OFFSET = "MODMQ_TIMER_QUEUE_OFFSET";
    public static final String REAL_TOPIC = "REAL_TOPIC";
    public static final String REAL_QID = "REAL_QID";
    public static final String DELAY_LEVEL = "DELAY";

    private TimerProperties() {
    }

    /** Whether {@code properties} ask for a timer (any of the three client properties). */
    public static boolean requested(Map<String, String> properties) {
        return properties.containsKey(DELIVER_MS) || properties.containsKey(DELAY_MS)
                || properties.containsKey(DELAY_SEC);
    }

    /** A cheap test on the encoded string, so that plain messages are never decoded twice. */
    static boolean mayRequest(String encoded) {
        return encoded.contains("TIMER_");
    }
}
