package org.modmq.broker.config;

/**
 * Timer messages (RocketMQ 5.x {@code TIMER_DELIVER_MS}, {@code TIMER_DELAY_MS}, {@code TIMER_DELAY_SEC}).
 * Immutable; times in ms unless the name says otherwise.
 *
 * @param wheelEnable {@code timerWheelEnable}: whether timer messages are accepted; when false a send with
 *     a timer property is refused with SYSTEM_ERROR, as RocketMQ does
 * @param maxDelaySec {@code timerMaxDelaySec}: the longest accepted delay (default 3 days); a longer one is
 *     refused with MESSAGE_ILLEGAL
 * @param precisionMs {@code timerPrecisionMs}: the wheel's slot width; a timer arrives at most this late
 *     (modmq's default 100, RocketMQ's 1000). Unlike RocketMQ any value in [10, 1000] is taken as is
 * @param flushIntervalMs {@code timerFlushIntervalMs}: how often the timer checkpoint is written; after a
 *     crash, timers delivered since the last checkpoint are delivered again
 * @param stopEnqueue {@code timerStopEnqueue}: operator switch, stored timers are not indexed while true
 * @param stopDequeue {@code timerStopDequeue}: operator switch, due timers are not delivered while true
 */
public record TimerConfig(boolean wheelEnable, long maxDelaySec, int precisionMs, int flushIntervalMs,
                          boolean stopEnqueue, boolean stopDequeue) {

    /** The defaults of a fresh broker.conf. */
    public static TimerConfig defaults() {
        return new TimerConfig(true, 259_200, 100, 1_000, false, false);
    }

    static TimerConfig read(ConfigReader reader) {
        return new TimerConfig(
                reader.bool("timerWheelEnable", true),
                reader.longIn("timerMaxDelaySec", 259_200, 1, 3_650L * 86_400),
                reader.intIn("timerPrecisionMs", 100, 10, 1_000),
                reader.intIn("timerFlushIntervalMs", 1_000, 10, 60_000),
                reader.bool("timerStopEnqueue", false),
                reader.bool("timerStopDequeue", false));
    }
}
