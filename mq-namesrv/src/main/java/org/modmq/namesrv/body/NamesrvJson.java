package org.modmq.namesrv.body;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.json.JsonReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.MapperFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * JSON for the name server's bodies, shaped like the stock server's output: properties in
 * alphabetical order, null properties left out, map entries sorted by key. Map keys are quoted
 * (standard JSON), which the 5.3.3 client accepts; {@link #encodeWithBareNumericKeys} gives the
 * fastjson default form for old clients. Parsing is lenient: unknown properties are ignored and
 * unquoted field names are accepted. Thread-safe; all methods are static.
 */
public final class NamesrvJson {

    private static final ObjectMapper MAPPER = JsonMapper.builder()
            .enable(MapperFeature.SORT_PROPERTIES_ALPHABETICALLY)
            .disable(MapperFeature.SORT_CREATOR_PROPERTIES_FIRST)
            .enable(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS)
            .disable(SerializationFeature.FAIL_ON_EMPTY_BEANS)
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .enable(JsonReadFeature.ALLOW_UNQUOTED_FIELD_NAMES)
            .enable(JsonReadFeature.ALLOW_SINGLE_QUOTES)
            .serializationInclusion(JsonInclude.Include.NON_NULL)
            .build();

    /**
     * A quoted key made only of digits, right after the start of an object or a comma. Inside a JSON
     * string every quote is escaped, so this matches real keys only.
     */
    private static final Pattern NUMERIC_KEY = Pattern.compile("(?<=[{,])\"(-?\\d+)\":");

    private NamesrvJson() {
    }

    /** The value as UTF-8 JSON. */
    public static byte[] encode(Object value) {
        return encodeToString(value).getBytes(StandardCharsets.UTF_8);
    }

    /** The value as a JSON string. */
    public static String encodeToString(Object value) {
        Objects.requireNonNull(value, "value");
        try {
            return MAPPER.writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot encode " + value.getClass().getSimpleName(), e);
        }
    }

    /**
     * The value as JSON with integer map keys written bare ({@code {0:"addr"}}), as fastjson does by
     * default; for clients older than 4.9.4.
     */
    public static byte[] encodeWithBareNumericKeys(Object value) {
        String json = NUMERIC_KEY.matcher(encodeToString(value)).replaceAll("$1:");
        return json.getBytes(StandardCharsets.UTF_8);
    }

    /**
     * Parses a body.
     *
     * @throws BodyFormatException if the bytes are not JSON of that shape (the JSON literal {@code null} is not)
     */
    public static <T> T decode(byte[] body, Class<T> type) {
        Objects.requireNonNull(body, "body");
        Objects.requireNonNull(type, "type");
        try {
            T value = MAPPER.readValue(body, type);
            if (value == null) {
                throw new BodyFormatException("body is not a valid " + type.getSimpleName() + ": it is null", null);
            }
            return value;
        } catch (JsonProcessingException e) {
            throw new BodyFormatException("body is not a valid " + type.getSimpleName() + ": "
                    + e.getOriginalMessage(), e);
        } catch (IOException e) {
            throw new BodyFormatException("body is not a valid " + type.getSimpleName() + ": "
                    + e.getMessage(), e);
        }
    }

    /** Parses a body given as a string. */
    public static <T> T decode(String body, Class<T> type) {
        return decode(body.getBytes(StandardCharsets.UTF_8), type);
    }
}
