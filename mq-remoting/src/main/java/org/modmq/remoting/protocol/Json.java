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
import java.io.IOException;

/**
 * JSON bodies, written the way the stock client expects and read leniently (section 4).
 *
 * <p>Writing: standard JSON, properties sorted alphabetically (as fastjson does), null properties
 * omitted, enums by name, map keys always quoted strings. Stock clients accept quoted integer map
 * keys ({@code {"0":"addr"}}). Tables keyed by an object ({@code MessageQueue}) need fastjson's
 * non-standard object keys, which fastjson2 (5.5 clients) requires; the bodies that have them write
 * those keys with a serializer of their own.
 *
 * <p>Reading: unknown properties are ignored, unquoted field names are allowed (fastjson writes
 * integer map keys unquoted: {@code {0:"addr"}}), single quotes and trailing commas are tolerated.
 * What Jackson cannot read: fastjson's object-valued map keys ({@code {{"topic":"t"}:1}}), which
 * stock servers write for {@code MessageQueue}-keyed tables; we never need to read those.
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
        try {
            return MAPPER.writeValueAsBytes(value);
        } catch (JsonProcessingException e) {
            throw new JsonBodyException("cannot encode " + value.getClass().getName() + ": " + e.getOriginalMessage(), e);
        }
    }

    /**
     * @param body UTF-8 JSON
     * @param type the class to bind to
     * @return the decoded value
     * @throws JsonBodyException (code {@link ResponseCode#SYSTEM_ERROR}) when the body is not valid
     */
    public static <T> T decode(byte[] body, Class<T> type) {
        try {
            return MAPPER.readValue(requireBody(body), type);
        } catch (IOException e) {
            throw invalid(type.getSimpleName(), e);
        }
    }

    /** Like {@link #decode(byte[], Class)} for generic types such as {@code Map<String, Long>}. */
    public static <T> T decode(byte[] body, TypeReference<T> type) {
        try {
            return MAPPER.readValue(requireBody(body), type);
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

    private static byte[] requireBody(byte[] body) {
        if (body == null || body.length == 0) {
            throw new JsonBodyException("the request body is missing", null);
        }
        return body;
    }

    private static JsonBodyException invalid(String what, IOException e) {
        String detail = e instanceof JsonProcessingException p ? p.getOriginalMessage() : e.getMessage();
        return new JsonBodyException("the body is not a valid " + what + ": " + detail, e);
    }
}
