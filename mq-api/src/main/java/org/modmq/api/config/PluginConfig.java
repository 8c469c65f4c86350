package org.modmq.api.config;

import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;

/**
 * What a plugin receives at create: the values of the keys it declared, parsed and checked (defaults
 * applied), with typed getters, plus the broker's settings as read ({@link #values()}) for the broker
 * keys a plugin also uses ({@code listenPort}, {@code brokerIP1}, ...). Immutable and thread-safe.
 *
 * <p>A getter for a key the plugin did not declare is a programming error
 * ({@link IllegalArgumentException}); a bad value never gets that far: {@link #of} fails first.
 */
public final class PluginConfig {

    private final Map<String, ConfigKey> declared;
    private final Map<String, Object> parsed;
    private final ConfigValues values;

    private PluginConfig(Map<String, ConfigKey> declared, Map<String, Object> parsed, ConfigValues values) {
        this.declared = declared;
        this.parsed = parsed;
        this.values = values;
    }

    /**
     * Parses the declared {@code keys} from {@code values}.
     *
     * @throws ConfigException naming key and value when a value is not allowed
     * @throws IllegalArgumentException when two declarations share a name
     */
    public static PluginConfig of(List<ConfigKey> keys, ConfigValues values) {
        return of(keys, values, null);
    }

    /**
     * Parses the declared {@code keys} from {@code values} read from {@code source} (named in errors; may be
     * null).
     *
     * @throws ConfigException naming key, value and source when a value is not allowed
     * @throws IllegalArgumentException when two declarations share a name
     */
    public static PluginConfig of(List<ConfigKey> keys, ConfigValues values, String source) {
        Objects.requireNonNull(keys, "keys");
        Objects.requireNonNull(values, "values");
        Map<String, ConfigKey> declared = new LinkedHashMap<>();
        Map<String, Object> parsed = new LinkedHashMap<>();
        for (ConfigKey key : keys) {
            if (declared.putIfAbsent(key.name(), key) != null) {
                throw new IllegalArgumentException("key '" + key.name() + "' is declared twice");
            }
            Optional<String> raw = values.get(key.name()).filter(v -> !v.isEmpty());
            if (raw.isPresent()) {
                parsed.put(key.name(), key.parse(raw.get(), source));
            } else if (key.defaultValue() != null) {
                parsed.put(key.name(), key.parse(key.defaultValue()));
            }
        }
        return new PluginConfig(Collections.unmodifiableMap(declared), Collections.unmodifiableMap(parsed), values);
    }

    /** The declarations, in declaration order. */
    public List<ConfigKey> keys() {
        return List.copyOf(declared.values());
    }

    /** Every setting as read (broker keys included), for the broker keys a plugin also uses. */
    public ConfigValues values() {
        return values;
    }

    /** Whether the setting has a value (set, or a declared default). */
    public boolean isSet(String key) {
        declaration(key);
        return parsed.containsKey(key);
    }

    /** The value of a key of any type as text, empty when it is absent and has no default. */
    public Optional<String> text(String key) {
        declaration(key);
        return Optional.ofNullable(parsed.get(key)).map(String::valueOf);
    }

    /** A STRING, SECRET or ENUM key's value. */
    public String string(String key) {
        return (String) required(key, ConfigKey.ValueType.STRING, ConfigKey.ValueType.SECRET,
                ConfigKey.ValueType.ENUM);
    }

    /** A BOOL key's value. */
    public boolean bool(String key) {
        return (Boolean) required(key, ConfigKey.ValueType.BOOL);
    }

    /** An INT key's value. */
    public int intValue(String key) {
        return (Integer) required(key, ConfigKey.ValueType.INT);
    }

    /** A LONG, DURATION_MS, SIZE_BYTES or INT key's value. */
    public long longValue(String key) {
        return ((Number) required(key, ConfigKey.ValueType.LONG, ConfigKey.ValueType.DURATION_MS,
                ConfigKey.ValueType.SIZE_BYTES, ConfigKey.ValueType.INT)).longValue();
    }

    /** A DOUBLE key's value. */
    public double doubleValue(String key) {
        return (Double) required(key, ConfigKey.ValueType.DOUBLE);
    }

    /** A DURATION_MS key's value. */
    public Duration duration(String key) {
        return Duration.ofMillis((Long) required(key, ConfigKey.ValueType.DURATION_MS));
    }

    /** The declared keys that have a value, with the value in force as text, sorted by key; SECRET keys left out. */
    public Map<String, String> effective() {
        Map<String, String> effective = new TreeMap<>();
        parsed.forEach((k, v) -> {
            if (declared.get(k).type() != ConfigKey.ValueType.SECRET) {
                effective.put(k, String.valueOf(v));
            }
        });
        return Collections.unmodifiableMap(effective);
    }

    private Object required(String key, ConfigKey.ValueType... types) {
        ConfigKey declaration = declaration(key);
        if (!List.of(types).contains(declaration.type())) {
            throw new IllegalArgumentException("key '" + key + "' is declared " + declaration.type()
                    + ", not " + List.of(types));
        }
        Object value = parsed.get(key);
        if (value == null) {
            throw new IllegalArgumentException("key '" + key + "' has no value and no default; check isSet first");
        }
        return value;
    }

    private ConfigKey declaration(String key) {
        ConfigKey declaration = declared.get(Objects.requireNonNull(key, "key"));
        if (declaration == null) {
            throw new IllegalArgumentException("key '" + key + "' is not declared; declared: " + declared.keySet());
        }
        return declaration;
    }

    @Override
    public String toString() {
        return effective().toString();
    }
}
