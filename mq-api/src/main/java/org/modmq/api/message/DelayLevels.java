package org.modmq.api.message;

import java.util.Arrays;
import org.modmq.api.config.ConfigException;

/**
 * The delay levels of {@code messageDelayLevel}: level {@code n} (1-based) waits the {@code n}-th
 * duration, written as a number and a unit {@code s}, {@code m}, {@code h} or {@code d} as RocketMQ
 * writes them. Messages of level {@code n} wait in {@link #SCHEDULE_TOPIC} queue {@code n - 1}; the
 * ConsumeQueue entry's tag code there is the delivery time ({@link #deliverAt}), as in RocketMQ.
 * Immutable.
 */
public final class DelayLevels {

    /** The topic delayed messages wait in, one queue per level. */
    public static final String SCHEDULE_TOPIC = "SCHEDULE_TOPIC_XXXX";
    /** RocketMQ's default {@code messageDelayLevel}: 18 levels. */
    public static final String DEFAULT = "1s 5s 10s 30s 1m 2m 3m 4m 5m 6m 7m 8m 9m 10m 20m 30m 1h 2h";
    /** The broker key. */
    public static final String KEY = "messageDelayLevel";

    private final long[] millis;
    private final String text;

    private DelayLevels(long[] millis, String text) {
        this.millis = millis;
        this.text = text;
    }

    /**
     * Parses a {@code messageDelayLevel} value: durations separated by spaces, each digits and a unit.
     *
     * @throws ConfigException naming the key, the value and the first bad duration
     */
    public static DelayLevels parse(String value) {
        String trimmed = value == null ? "" : value.trim();
        if (trimmed.isEmpty()) {
            throw new ConfigException(KEY + " is empty: expected durations like \"" + DEFAULT + "\"");
        }
        String[] parts = trimmed.split("\\s+");
        long[] millis = new long[parts.length];
        for (int i = 0; i < parts.length; i++) {
            millis[i] = durationMillis(parts[i], trimmed);
        }
        return new DelayLevels(millis, String.join(" ", parts));
    }

    private static long durationMillis(String part, String value) {
        long unit = switch (part.charAt(part.length() - 1)) {
            case 's' -> 1_000L;
            case 'm' -> 60_000L;
            case 'h' -> 3_600_000L;
            case 'd' -> 86_400_000L;
            default -> 0L;
        };
        String digits = part.substring(0, part.length() - 1);
        if (unit == 0 || digits.isEmpty() || !digits.chars().allMatch(Character::isDigit)) {
            throw bad(part, value);
        }
        try {
            return Math.multiplyExact(Long.parseLong(digits), unit);
        } catch (ArithmeticException | NumberFormatException e) {
            throw bad(part, value);
        }
    }

    private static ConfigException bad(String part, String value) {
        return new ConfigException(KEY + "=" + value + " is not valid: '" + part
                + "' is not a duration (digits and one of the units s, m, h, d, e.g. 10s)");
    }

    /** The number of levels (the highest level). */
    public int count() {
        return millis.length;
    }

    /** {@code level} brought into {@code [1, count()]}: a level above the highest is the highest, as in RocketMQ. */
    public int clamp(int level) {
        return Math.max(1, Math.min(level, millis.length));
    }

    /** The delay of {@code level} (clamped), ms. */
    public long millis(int level) {
        return millis[clamp(level) - 1];
    }

    /** When a message of {@code level} stored at {@code storeTimestamp} is due. */
    public long deliverAt(int level, long storeTimestamp) {
        return storeTimestamp + millis(level);
    }

    /** The SCHEDULE_TOPIC_XXXX queue of {@code level} (clamped). */
    public int queueId(int level) {
        return clamp(level) - 1;
    }

    /** The value in the form it was configured (single spaces). */
    @Override
    public String toString() {
        return text;
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof DelayLevels levels && Arrays.equals(millis, levels.millis);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(millis);
    }
}
