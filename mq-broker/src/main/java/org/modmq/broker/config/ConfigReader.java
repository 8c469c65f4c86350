package org.modmq.broker.config;

import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.DoubleUnaryOperator;
import java.util.List;
import org.modmq.api.config.ConfigException;
import org.modmq.api.config.ConfigKey;
import org.modmq.api.config.ConfigValues;
import org.modmq.store.StoreConfig;

/**
 * Typed reads over one configuration source that remember which keys were read and the effective
 * value of each, so that the parser can report unknown keys and {@code GET_BROKER_CONFIG} can show
 * what is in force. Every error names the key, the value, the source and what is allowed. Each typed
 * read also records a {@link ConfigKey} (type, default, bounds), so that the broker's own keys are
 * declared the way plugin keys are, for the configuration reference.
 * Not thread-safe: used by one parser on one thread.
 */
final class ConfigReader {

    private final ConfigValues values;
    private final String source;
    private final Set<String> consumed = new LinkedHashSet<>();
    private final Map<String, String> effective = new TreeMap<>();
    private final Map<String, ConfigKey> declared = new TreeMap<>();

    ConfigReader(ConfigValues values, String source) {
        this.values = Objects.requireNonNull(values, "values");
        this.source = Objects.requireNonNull(source, "source");
    }

    String source() {
        return source;
    }

    Optional<String> raw(String key) {
        consumed.add(key);
        return values.get(key).filter(v -> !v.isEmpty());
    }

    /** The value as written (null when absent or empty), without marking the key read. */
    String rawValue(String key) {
        return values.get(key).filter(v -> !v.isEmpty()).orElse(null);
    }

    String string(String key, String defaultValue) {
        declare(() -> ConfigKey.string(key, defaultValue, ""));
        return remember(key, raw(key).orElse(defaultValue));
    }

    long longIn(String key, long defaultValue, long min, long max) {
        declare(() -> ConfigKey.longValue(key, defaultValue, min, max, ""));
        return readLong(key, defaultValue, min, max);
    }

    private long readLong(String key, long defaultValue, long min, long max) {
        Optional<String> raw = raw(key);
        long value = defaultValue;
        if (raw.isPresent()) {
            try {
                value = Long.parseLong(raw.get());
            } catch (NumberFormatException e) {
                throw bad(key, raw.get(), "an integer in [" + min + ", " + max + "]");
            }
            if (value < min || value > max) {
                throw bad(key, raw.get(), "an integer in [" + min + ", " + max + "]");
            }
        }
        remember(key, Long.toString(value));
        return value;
    }

    int intIn(String key, int defaultValue, int min, int max) {
        declare(() -> ConfigKey.integer(key, defaultValue, min, max, ""));
        return (int) readLong(key, defaultValue, min, max);
    }

    double doubleIn(String key, double defaultValue, double min, double max) {
        return doubleIn(key, defaultValue, min, max, DoubleUnaryOperator.identity(),
                "a number in [" + min + ", " + max + "]");
    }

    /** A ratio in [min, max] written as a fraction or, above 1, as a percent ({@code StoreConfig.fraction}). */
    double ratioIn(String key, double defaultValue, double min, double max) {
        return doubleIn(key, defaultValue, min, max, StoreConfig::fraction, "a fraction in [" + min + ", " + max
                + "] or a percent in [" + Math.round(min * 100) + ", " + Math.round(max * 100) + "]");
    }

    /** A number, read through {@code normalize}, then checked against [min, max]. */
    private double doubleIn(String key, double defaultValue, double min, double max, DoubleUnaryOperator normalize,
                            String expected) {
        declare(() -> new ConfigKey(key, ConfigKey.ValueType.DOUBLE, Double.toString(defaultValue), "", 0, 0,
                List.of()));
        Optional<String> raw = raw(key);
        double value = defaultValue;
        if (raw.isPresent()) {
            try {
                value = normalize.applyAsDouble(Double.parseDouble(raw.get()));
            } catch (NumberFormatException e) {
                throw bad(key, raw.get(), expected);
            }
            if (!(value >= min && value <= max)) {
                throw bad(key, raw.get(), expected);
            }
        }
        remember(key, Double.toString(value));
        return value;
    }

    boolean bool(String key, boolean defaultValue) {
        declare(() -> ConfigKey.bool(key, defaultValue, ""));
        Optional<String> raw = raw(key);
        boolean value = defaultValue;
        if (raw.isPresent()) {
            String text = raw.get().toLowerCase(Locale.ROOT);
            if (!text.equals("true") && !text.equals("false")) {
                throw bad(key, raw.get(), "one of [true, false]");
            }
            value = Boolean.parseBoolean(text);
        }
        remember(key, Boolean.toString(value));
        return value;
    }

    <E extends Enum<E>> E enumValue(String key, Class<E> type, E defaultValue) {
        declare(() -> ConfigKey.choice(key, defaultValue.name(),
                Arrays.stream(type.getEnumConstants()).map(Enum::name).toList(), ""));
        Optional<String> raw = raw(key);
        E value = defaultValue;
        if (raw.isPresent()) {
            value = null;
            for (E constant : type.getEnumConstants()) {
                if (constant.name().equalsIgnoreCase(raw.get())) {
                    value = constant;
                }
            }
            if (value == null) {
                throw bad(key, raw.get(), "one of " + Arrays.toString(type.getEnumConstants()));
            }
        }
        remember(key, value.name());
        return value;
    }

    /**
     * What each key read so far takes, without descriptions; a key read without a typed accessor is
     * declared as a string whose default is its effective value.
     */
    Map<String, ConfigKey> declarations() {
        Map<String, ConfigKey> all = new TreeMap<>(declared);
        for (String key : consumed) {
            all.computeIfAbsent(key, k -> ConfigKey.string(k, effective.get(k), ""));
        }
        return Collections.unmodifiableMap(all);
    }

    private void declare(java.util.function.Supplier<ConfigKey> declaration) {
        try {
            ConfigKey key = declaration.get();
            declared.putIfAbsent(key.name(), key);
        } catch (IllegalArgumentException e) {
            // A default outside its own bounds (a sentinel): the key is then listed as a string.
        }
    }

    /** Keys read so far, in reading order. */
    Set<String> consumed() {
        return Collections.unmodifiableSet(consumed);
    }

    /** Effective value of every key read, sorted by key. */
    Map<String, String> effective() {
        return Collections.unmodifiableMap(effective);
    }

    ConfigException bad(String key, String value, String allowed) {
        return new ConfigException(key + "=" + value + " in " + source + " is not valid: expected " + allowed);
    }

    String remember(String key, String value) {
        if (value != null) {
            effective.put(key, value);
        }
        return value;
    }
}
