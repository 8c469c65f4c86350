package org.modmq.api.config;

import java.util.Arrays;
import java.util.Collections;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Immutable {@code key=value} settings as read from {@code broker.conf}, with typed accessors that
 * fail with a {@link ConfigException} naming the key and the value. Thread-safe.
 */
public final class ConfigValues {

    private static final ConfigValues EMPTY = new ConfigValues(Map.of());

    private final Map<String, String> values;

    private ConfigValues(Map<String, String> values) {
        this.values = Collections.unmodifiableMap(new TreeMap<>(values));
    }

    public static ConfigValues of(Map<String, String> values) {
        Objects.requireNonNull(values, "values");
        return new ConfigValues(values);
    }

    public static ConfigValues empty() {
        return EMPTY;
    }

    /** A copy with {@code key} set to {@code value}. */
    public ConfigValues with(String key, String value) {
        Map<String, String> copy = new TreeMap<>(values);
        copy.put(Objects.requireNonNull(key, "key"), Objects.requireNonNull(value, "value"));
        return new ConfigValues(copy);
    }

    public Optional<String> get(String key) {
        return Optional.ofNullable(values.get(key)).map(String::trim);
    }

    public String string(String key, String defaultValue) {
        return get(key).orElse(defaultValue);
    }

    public int intValue(String key, int defaultValue) {
        long value = longValue(key, defaultValue);
        if (value < Integer.MIN_VALUE || value > Integer.MAX_VALUE) {
            throw new ConfigException(key + "=" + value + " is out of the int range");
        }
        return (int) value;
    }

    public long longValue(String key, long defaultValue) {
        Optional<String> raw = get(key);
        if (raw.isEmpty()) {
            return defaultValue;
        }
        try {
            return Long.parseLong(raw.get());
        } catch (NumberFormatException e) {
            throw new ConfigException(key + "=" + raw.get() + " is not an integer");
        }
    }

    public double doubleValue(String key, double defaultValue) {
        Optional<String> raw = get(key);
        if (raw.isEmpty()) {
            return defaultValue;
        }
        try {
            return Double.parseDouble(raw.get());
        } catch (NumberFormatException e) {
            throw new ConfigException(key + "=" + raw.get() + " is not a number");
        }
    }

    public boolean bool(String key, boolean defaultValue) {
        Optional<String> raw = get(key);
        if (raw.isEmpty()) {
            return defaultValue;
        }
        String value = raw.get().toLowerCase(java.util.Locale.ROOT);
        if (value.equals("true")) {
            return true;
        }
        if (value.equals("false")) {
            return false;
        }
        throw new ConfigException(key + "=" + raw.get() + " is not one of [true, false]");
    }

    public <E extends Enum<E>> E enumValue(String key, Class<E> type, E defaultValue) {
        Optional<String> raw = get(key);
        if (raw.isEmpty()) {
            return defaultValue;
        }
        for (E constant : type.getEnumConstants()) {
            if (constant.name().equalsIgnoreCase(raw.get())) {
                return constant;
            }
        }
        throw new ConfigException(key + "=" + raw.get() + " is not one of "
                + Arrays.toString(type.getEnumConstants()));
    }

    /** The keys present, sorted. */
    public Set<String> keys() {
        return Collections.unmodifiableSet(new TreeSet<>(values.keySet()));
    }

    public Map<String, String> asMap() {
        return values;
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof ConfigValues that && values.equals(that.values);
    }

    @Override
    public int hashCode() {
        return values.hashCode();
    }

    @Override
    public String toString() {
        return values.toString();
    }
}
