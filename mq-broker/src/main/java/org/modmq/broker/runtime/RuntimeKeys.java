package org.modmq.broker.runtime;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.IntSupplier;

/**
 * The broker keys UPDATE_BROKER_CONFIG may change, each with the check its new value must pass.
 * Only settings that every reader looks up on each use are here: nothing that names a path, a plugin,
 * an address, a port, the broker's identity, a thread pool or anything that decides which files are
 * kept or deleted. Stateless and thread-safe.
 */
public final class RuntimeKeys {

    /** One key's rule: a description of what is allowed and the check. */
    private record Rule(String allowed, ValueCheck check) {
    }

    @FunctionalInterface
    private interface ValueCheck {
        boolean accepts(String value, int startMaxMessageSize);
    }

    private static final Map<String, Rule> RULES = rules();

    private RuntimeKeys() {
    }

    private static Map<String, Rule> rules() {
        Map<String, Rule> rules = new LinkedHashMap<>();
        // RocketMQ's PermName.isValid: the READ (4), WRITE (2) and INHERIT (1) bits, nothing else.
        rules.put("brokerPermission", integer(0, 7));
        rules.put("autoCreateTopicEnable", bool());
        rules.put("autoCreateSubscriptionGroup", bool());
        rules.put("longPollingEnable", bool());
        rules.put("shortPollingTimeMills", integer(1, 60_000));
        rules.put("slaveReadEnable", bool());
        rules.put("accessMessageInMemoryMaxRatio", integer(0, 100));
        // The store's record bound is fixed when it opens (maxMessageSize + 64 KiB), so the body limit may
        // only go down from the start-up value.
        rules.put("maxMessageSize", new Rule("an integer in [1, the maxMessageSize the broker started with]",
                (value, startMax) -> parse(value).filter(v -> v >= 1 && v <= startMax).isPresent()));
        return Collections.unmodifiableMap(rules);
    }

    /** Every key that may change at run time, in documentation order. */
    public static Set<String> names() {
        return RULES.keySet();
    }

    /** Whether {@code key} may change at run time. */
    public static boolean isRuntimeKey(String key) {
        return RULES.containsKey(key);
    }

    /**
     * Why {@code value} is not allowed for the run-time key {@code key}, or empty when it is.
     *
     * @param startMaxMessageSize the {@code maxMessageSize} the broker started with
     * @throws IllegalArgumentException when {@code key} is not a run-time key
     */
    public static Optional<String> problem(String key, String value, IntSupplier startMaxMessageSize) {
        Rule rule = RULES.get(key);
        if (rule == null) {
            throw new IllegalArgumentException("not a run-time key: " + key);
        }
        if (rule.check().accepts(value.trim(), startMaxMessageSize.getAsInt())) {
            return Optional.empty();
        }
        return Optional.of(key + "=" + value + " is not valid: expected " + rule.allowed());
    }

    private static Rule integer(int min, int max) {
        return new Rule("an integer in [" + min + ", " + max + "]",
                (value, ignored) -> parse(value).filter(v -> v >= min && v <= max).isPresent());
    }

    private static Rule bool() {
        return new Rule("one of [true, false]",
                (value, ignored) -> value.equalsIgnoreCase("true") || value.equalsIgnoreCase("false"));
    }

    private static Optional<Long> parse(String value) {
        try {
            return Optional.of(Long.parseLong(value));
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
    }
}
