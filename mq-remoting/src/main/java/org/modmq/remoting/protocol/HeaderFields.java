package org.modmq.remoting.protocol;

import java.util.Map;
import java.util.Objects;

/**
 * Typed, validated read access to a command's header fields ({@code extFields}). A missing
 * required field or a value that does not parse throws {@link HeaderFieldException} whose remark
 * names the field; the remoting server answers it with that code and remark. Unknown fields are
 * ignored (docs/protocol.md section 15, trap 22). Numbers are decimal; booleans {@code true}/{@code false}
 * (any case). A field present with an empty value counts as absent, as the ROCKETMQ header cannot
 * tell them apart.
 *
 * <p>Threading: a view over the command's map; use it on the thread that owns the command.
 */
public final class HeaderFields {

    private final Map<String, String> fields;

    /** @param fields the header fields, not copied */
    public HeaderFields(Map<String, String> fields) {
        this.fields = Objects.requireNonNull(fields, "fields");
    }

    /**
     * @param name a field name
     * @return whether the field is present with a non-empty value
     */
    public boolean has(String name) {
        String value = fields.get(name);
        return value != null && !value.isEmpty();
    }

    /**
     * @param name a field name
     * @return the value
     * @throws HeaderFieldException when the field is absent
     */
    public String requireString(String name) {
        String value = fields.get(name);
        if (value == null || value.isEmpty()) {
            throw new HeaderFieldException(name, "the custom header field '" + name + "' is missing");
        }
        return value;
    }

    /**
     * @param name a field name
     * @param defaultValue returned when absent (may be null)
     * @return the value or the default
     */
    public String optionalString(String name, String defaultValue) {
        return has(name) ? fields.get(name) : defaultValue;
    }

    /** @throws HeaderFieldException when absent or not a 32-bit decimal integer */
    public int requireInt(String name) {
        return parseInt(name, requireString(name));
    }

    /** @return the value, or {@code defaultValue} when absent; @throws HeaderFieldException when malformed */
    public int optionalInt(String name, int defaultValue) {
        return has(name) ? parseInt(name, fields.get(name)) : defaultValue;
    }

    /** @throws HeaderFieldException when absent or not a 64-bit decimal integer */
    public long requireLong(String name) {
        return parseLong(name, requireString(name));
    }

    /** @return the value, or {@code defaultValue} when absent; @throws HeaderFieldException when malformed */
    public long optionalLong(String name, long defaultValue) {
        return has(name) ? parseLong(name, fields.get(name)) : defaultValue;
    }

    /** @throws HeaderFieldException when absent or neither {@code true} nor {@code false} */
    public boolean requireBoolean(String name) {
        return parseBoolean(name, requireString(name));
    }

    /** @return the value, or {@code defaultValue} when absent; @throws HeaderFieldException when malformed */
    public boolean optionalBoolean(String name, boolean defaultValue) {
        return has(name) ? parseBoolean(name, fields.get(name)) : defaultValue;
    }

    /**
     * @param name a field name
     * @param type the enum type; the value must be one of its constant names
     * @return the constant
     * @throws HeaderFieldException when absent or not a constant name
     */
    public <E extends Enum<E>> E requireEnum(String name, Class<E> type) {
        String value = requireString(name);
        try {
            return Enum.valueOf(type, value);
        } catch (IllegalArgumentException e) {
            throw malformed(name, value, "one of " + java.util.Arrays.toString(type.getEnumConstants()));
        }
    }

    private static int parseInt(String name, String value) {
        try {
            return Integer.parseInt(value.trim());
        } catch (NumberFormatException e) {
            throw malformed(name, value, "an int");
        }
    }

    private static long parseLong(String name, String value) {
        try {
            return Long.parseLong(value.trim());
        } catch (NumberFormatException e) {
            throw malformed(name, value, "a long");
        }
    }

    private static boolean parseBoolean(String name, String value) {
        String trimmed = value.trim();
        if ("true".equalsIgnoreCase(trimmed)) {
            return true;
        }
        if ("false".equalsIgnoreCase(trimmed)) {
            return false;
        }
        throw malformed(name, value, "true or false");
    }

    private static HeaderFieldException malformed(String name, String value, String expected) {
        return new HeaderFieldException(name,
                "the custom header field '" + name + "' is malformed: '" + value + "' is not " + expected);
    }
}
