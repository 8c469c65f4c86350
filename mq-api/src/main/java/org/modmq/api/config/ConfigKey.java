package org.modmq.api.config;

import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * The declaration of one configuration key: its name in {@code broker.conf}, the type of its value, the
 * default, a one-line description for the configuration reference, and what values are allowed. Plugins
 * declare their keys with these ({@link org.modmq.api.spi.NamedProvider#configKeys()}); the broker parses
 * and checks the values before it creates the plugin. Immutable and thread-safe.
 *
 * @param name the key, e.g. {@code directReadCacheBytes}
 * @param type what kind of value it takes
 * @param defaultValue the value in force when the key is absent, in the form it is written; null when the
 *     key has no fixed default (the plugin derives one, as the description says)
 * @param description one sentence for the reference; never null
 * @param min smallest allowed value of a numeric key (INT, LONG, DURATION_MS, SIZE_BYTES); ignored otherwise
 * @param max largest allowed value of a numeric key; ignored otherwise
 * @param choices the allowed values of an ENUM key (matched ignoring case); empty otherwise
 */
public record ConfigKey(String name, ValueType type, String defaultValue, String description, long min, long max,
                        List<String> choices) {

    /** The kinds of values a key takes. */
    public enum ValueType {
        /** Any text. */
        STRING("string"),
        /** Any text that is never shown: left out of the values in force and of logs. */
        SECRET("secret"),
        /** {@code true} or {@code false}, ignoring case. */
        BOOL("bool"),
        /** A 32-bit integer. */
        INT("int"),
        /** A 64-bit integer. */
        LONG("long"),
        /** A decimal number. */
        DOUBLE("double"),
        /** One of a fixed set of names. */
        ENUM("enum"),
        /** A duration, written as whole milliseconds as RocketMQ's keys are. */
        DURATION_MS("duration (ms)"),
        /** A size, written as whole bytes. */
        SIZE_BYTES("size (bytes)");

        private final String label;

        ValueType(String label) {
            this.label = label;
        }

        /** How the reference names the type. */
        public String label() {
            return label;
        }

        boolean integral() {
            return this == INT || this == LONG || this == DURATION_MS || this == SIZE_BYTES;
        }
    }

    public ConfigKey {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(description, "description");
        choices = List.copyOf(choices);
        if (name.isBlank() || !name.equals(name.trim())) {
            throw new IllegalArgumentException("a key name must be non-blank without surrounding spaces: '" + name + "'");
        }
        if (type.integral() && min > max) {
            throw new IllegalArgumentException(name + ": min " + min + " > max " + max);
        }
        if (type == ValueType.INT && (min < Integer.MIN_VALUE || max > Integer.MAX_VALUE)) {
            throw new IllegalArgumentException(name + ": bounds outside the int range");
        }
        if (type == ValueType.ENUM && choices.isEmpty()) {
            throw new IllegalArgumentException(name + ": an ENUM key needs choices");
        }
        if (defaultValue != null) {
            // The fields are not assigned yet inside a compact constructor: check through a temporary copy.
            new ConfigKey(name, type, null, description, min, max, choices).parse(defaultValue, "its declaration");
        }
    }

    /** Any text. */
    public static ConfigKey string(String name, String defaultValue, String description) {
        return new ConfigKey(name, ValueType.STRING, defaultValue, description, 0, 0, List.of());
    }

    /** A secret (no default): read like text, never shown ({@link PluginConfig#effective()} leaves it out). */
    public static ConfigKey secret(String name, String description) {
        return new ConfigKey(name, ValueType.SECRET, null, description, 0, 0, List.of());
    }

    /** {@code true} or {@code false}. */
    public static ConfigKey bool(String name, boolean defaultValue, String description) {
        return new ConfigKey(name, ValueType.BOOL, Boolean.toString(defaultValue), description, 0, 0, List.of());
    }

    /** An int in {@code [min, max]}. */
    public static ConfigKey integer(String name, int defaultValue, int min, int max, String description) {
        return new ConfigKey(name, ValueType.INT, Integer.toString(defaultValue), description, min, max, List.of());
    }

    /** A long in {@code [min, max]}. */
    public static ConfigKey longValue(String name, long defaultValue, long min, long max, String description) {
        return new ConfigKey(name, ValueType.LONG, Long.toString(defaultValue), description, min, max, List.of());
    }

    /** Milliseconds in {@code [min, max]}. */
    public static ConfigKey millis(String name, long defaultValue, long min, long max, String description) {
        return new ConfigKey(name, ValueType.DURATION_MS, Long.toString(defaultValue), description, min, max,
                List.of());
    }

    /** Bytes in {@code [min, max]}. */
    public static ConfigKey bytes(String name, long defaultValue, long min, long max, String description) {
        return new ConfigKey(name, ValueType.SIZE_BYTES, Long.toString(defaultValue), description, min, max,
                List.of());
    }

    /** One of {@code choices}, matched ignoring case; the value in force is spelled as in {@code choices}. */
    public static ConfigKey choice(String name, String defaultValue, List<String> choices, String description) {
        return new ConfigKey(name, ValueType.ENUM, defaultValue, description, 0, 0, choices);
    }

    /** A copy without a fixed default: the plugin derives the value when the key is absent. */
    public ConfigKey withoutDefault() {
        return new ConfigKey(name, type, null, description, min, max, choices);
    }

    /** What values are allowed, in words ("an integer in [1, 65535]"), for errors and the reference. */
    public String allowed() {
        return switch (type) {
            case STRING -> "any text";
            case SECRET -> "any text (never shown)";
            case BOOL -> "one of [true, false]";
            case INT, LONG -> "an integer in [" + min + ", " + max + "]";
            case DURATION_MS -> "milliseconds in [" + min + ", " + max + "]";
            case SIZE_BYTES -> "bytes in [" + min + ", " + max + "]";
            case DOUBLE -> "a number";
            case ENUM -> "one of " + choices;
        };
    }

    /**
     * Parses and checks {@code raw}.
     *
     * @return a {@link String}, {@link Boolean}, {@link Integer} (INT), {@link Long} (LONG, DURATION_MS,
     *     SIZE_BYTES) or {@link Double}; an ENUM value spelled as its choice
     * @throws ConfigException naming the key, the value and what is allowed
     */
    public Object parse(String raw) {
        return parse(raw, null);
    }

    /**
     * Parses and checks {@code raw} read from {@code source} (a file name, for the error; may be null).
     *
     * @throws ConfigException naming the key, the value, the source and what is allowed
     */
    public Object parse(String raw, String source) {
        Objects.requireNonNull(raw, "raw");
        String text = raw.trim();
        switch (type) {
            case STRING:
            case SECRET:
                return text;
            case BOOL:
                if (text.equalsIgnoreCase("true") || text.equalsIgnoreCase("false")) {
                    return Boolean.parseBoolean(text.toLowerCase(Locale.ROOT));
                }
                throw bad(raw, source);
            case ENUM:
                for (String choice : choices) {
                    if (choice.equalsIgnoreCase(text)) {
                        return choice;
                    }
                }
                throw bad(raw, source);
            case DOUBLE:
                try {
                    double value = Double.parseDouble(text);
                    if (Double.isFinite(value)) {
                        return value;
                    }
                } catch (NumberFormatException e) {
                    // reported below with the key
                }
                throw bad(raw, source);
            default:
                long value;
                try {
                    value = Long.parseLong(text);
                } catch (NumberFormatException e) {
                    throw bad(raw, source);
                }
                if (value < min || value > max) {
                    throw bad(raw, source);
                }
                return type == ValueType.INT ? (Object) (int) value : (Object) value;
        }
    }

    private ConfigException bad(String raw, String source) {
        return new ConfigException(name + "=" + (type == ValueType.SECRET ? "(not shown)" : raw) + (source == null ? "" : " in " + source)
                + " is not valid: expected " + allowed());
    }
}
