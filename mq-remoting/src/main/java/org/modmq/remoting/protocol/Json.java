package org.modmq.remoting.protocol;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.json.JsonReadFeature;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MapperFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * The one JSON helper of modmq: bodies of requests and responses, and the metadata files of the
 * broker and the name server, written the way the stock client expects and read leniently
 * (docs/protocol.md section 4).
 *
 * <p>Writing: standard JSON, properties sorted alphabetically (as fastjson does), null properties
 * omitted, enums by name, map keys always quoted strings. Stock clients accept quoted integer map
 * keys ({@code {"0":"addr"}}); {@link #encodeWithBareNumericKeys} gives fastjson's default bare form
 * for clients older than 4.9.4. Tables keyed by an object ({@code MessageQueue}) need fastjson's
 * non-standard object keys, which fastjson2 (5.5 clients) requires; the bodies that have them write
 * those keys with a serializer of their own.
 *
 * <p>Reading: unknown properties are ignored, unquoted field names are allowed (fastjson writes
 * integer map keys unquoted: {@code {0:"addr"}}), single quotes and trailing commas are tolerated.
 * An empty body and the JSON literal {@code null} are refused. What Jackson cannot read: fastjson's
 * object-valued map keys ({@code {{"topic":"t"}:1}}), which stock servers write for
 * {@code MessageQueue}-keyed tables; we never need to read those.
 *
 * <p>JPMS: the classes being bound must be public and in a package that is exported, or opened to
 * {@code com.fasterxml.jackson.databind}; records are supported.
 *
 * <p>Threading: all methods are thread-safe (one shared, immutable mapper).
 */
public final class Json {

    private static final ObjectMapper MAPPER = JsonMapper.builder()
            .enable(MapperFeature.SORT_PROPERTIES_ALPHABETICALLY)
            .enable(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS)
            .disable(SerializationFeature.FAIL_ON_EMPTY_BEANS)
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .disable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
            .enable(DeserializationFeature.ACCEPT_SINGLE_VALUE_AS_ARRAY)
            .enable(JsonReadFeature.ALLOW_UNQUOTED_FIELD_NAMES)
            .enable(JsonReadFeature.ALLOW_SINGLE_QUOTES)
            .enable(JsonReadFeature.ALLOW_TRAILING_COMMA)
            .defaultPropertyInclusion(JsonInclude.Value.construct(JsonInclude.Include.NON_NULL, JsonInclude.Include.NON_NULL))
            .build();

    /**
     * A quoted key made only of digits, right after the start of an object or a comma. Inside a JSON
     * string every quote is escaped, so this matches real keys only.
     */
    private static final Pattern NUMERIC_KEY = Pattern.compile("(?<=[{,])\"(-?\\d+)\":");

    private Json() {
    }

    /** @return the shared mapper; do not reconfigure it */
    public static ObjectMapper mapper() {
        return MAPPER;
    }

    /**
     * @param value a body object (record, bean, map, list)
     * @return its UTF-8 JSON
     * @throws JsonBodyException when it cannot be serialized
     */
    public static byte[] encode(Object value) {
        return encodeToString(value).getBytes(StandardCharsets.UTF_8);
    }

    /** Like {@link #encode(Object)}, as a string. */
    public static String encodeToString(Object value) {
        Objects.requireNonNull(value, "value");
        try {
            return MAPPER.writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new JsonBodyException("cannot encode " + value.getClass().getName() + ": " + e.getOriginalMessage(), e);
        }
    }

    /**
     * The value as JSON with integer map keys written bare ({@code {0:"addr"}}), as fastjson does by
     * default; for clients older than 4.9.4, which cannot read quoted ones.
     */
    public static byte[] encodeWithBareNumericKeys(Object value) {
        return NUMERIC_KEY.matcher(encodeToString(value)).replaceAll("$1:").getBytes(StandardCharsets.UTF_8);
    }

    /**
     * @param body UTF-8 JSON
     * @param type the class to bind to
     * @return the decoded value, never null
     * @throws JsonBodyException (code {@link ResponseCode#SYSTEM_ERROR}) when the body is missing, the
     *         JSON {@code null}, or not JSON of that shape
     */
    public static <T> T decode(byte[] body, Class<T> type) {
        try {
            return requireValue(MAPPER.readValue(requireBody(body), type), type.getSimpleName());
        } catch (IOException e) {
            throw invalid(type.getSimpleName(), e);
        }
    }

    /** Like {@link #decode(byte[], Class)} for a body given as a string. */
    public static <T> T decode(String body, Class<T> type) {
        return decode(body.getBytes(StandardCharsets.UTF_8), type);
    }

    /** Like {@link #decode(byte[], Class)} for generic types such as {@code Map<String, Long>}. */
    public static <T> T decode(byte[] body, TypeReference<T> type) {
        try {
            return requireValue(MAPPER.readValue(requireBody(body), type), type.getType().getTypeName());
        } catch (IOException e) {
            throw invalid(type.getType().getTypeName(), e);
        }
    }

    /** @return the body as a tree, for hand-picking fields of loosely shaped bodies */
    public static JsonNode tree(byte[] body) {
        try {
            return MAPPER.readTree(requireBody(body));
        } catch (IOException e) {
            throw invalid("JSON", e);
        }
    }

    /**
     * Parses {@code body} as {@code type}, taking every property it lacks from {@code defaults}, so that
     * a missing boolean is its RocketMQ default rather than false.
     *
     * @throws JsonBodyException when the body is not a JSON object of that shape
     */
    public static <T> T decodeWithDefaults(byte[] body, T defaults, Class<T> type) {
        JsonNode incoming = tree(body);
        if (!incoming.isObject()) {
            throw new JsonBodyException("the body is not a valid " + type.getSimpleName() + ": expected a JSON object, got "
                    + new String(body, StandardCharsets.UTF_8), null);
        }
        return withDefaults(incoming, defaults, type);
    }

    /** Like {@link #decodeWithDefaults(byte[], Object, Class)} for an already parsed object node. */
    public static <T> T withDefaults(JsonNode incoming, T defaults, Class<T> type) {
        ObjectNode merged = MAPPER.valueToTree(defaults);
        incoming.properties().forEach(e -> {
            if (!e.getValue().isNull()) {
                merged.set(e.getKey(), e.getValue());
            }
        });
        try {
            return MAPPER.treeToValue(merged, type);
        } catch (IOException e) {
            throw invalid(type.getSimpleName(), e);
        }
    }

    private static byte[] requireBody(byte[] body) {
        if (body == null || body.length == 0) {
            throw new JsonBodyException("the request body is missing", null);
        }
        return body;
    }

    private static <T> T requireValue(T value, String what) {
        if (value == null) {
            throw new JsonBodyException("the body is not a valid " + what + ": it is null", null);
        }
        return value;
    }

    private static JsonBodyException invalid(String what, IOException e) {
        String detail = e instanceof JsonProcessingException p ? p.getOriginalMessage() : e.getMessage();
        return new JsonBodyException("the body is not a valid " + what + ": " + detail, e);
    }
}
