package org.modmq.broker.metadata;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Objects;

/**
 * JSON helpers of the broker over the remoting module's shared mapper (sorted properties, nulls
 * omitted, quoted keys on output; lenient on input, fastjson's unquoted {@code {0:5}} keys included),
 * plus decoding that fills missing properties from RocketMQ's defaults. Thread-safe.
 */
public final class BrokerJson {

    private static final ObjectMapper MAPPER = org.modmq.remoting.protocol.Json.mapper();

    private BrokerJson() {
    }

    public static ObjectMapper mapper() {
        return MAPPER;
    }

    /** UTF-8 JSON of {@code value}. */
    public static byte[] encode(Object value) {
        try {
            return MAPPER.writeValueAsBytes(value);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot encode " + value.getClass().getSimpleName() + " as JSON", e);
        }
    }

    /**
     * Parses {@code json} as {@code type}.
     *
     * @throws JsonBodyException when the bytes are not JSON of that shape
     */
    public static <T> T decode(byte[] json, Class<T> type) {
        Objects.requireNonNull(json, "json");
        try {
            return MAPPER.readValue(json, type);
        } catch (IOException e) {
            throw new JsonBodyException("malformed " + type.getSimpleName() + " JSON: " + e.getMessage(), e);
        }
    }

    /**
     * Parses {@code json} as {@code type}, taking every property it lacks from {@code defaults} (so
     * that a missing boolean is its RocketMQ default rather than false).
     *
     * @throws JsonBodyException when the bytes are not a JSON object of that shape
     */
    public static <T> T decodeWithDefaults(byte[] json, T defaults, Class<T> type) {
        try {
            JsonNode incoming = MAPPER.readTree(json);
            if (incoming == null || !incoming.isObject()) {
                throw new JsonBodyException("expected a JSON object for " + type.getSimpleName() + ", got "
                        + new String(json, StandardCharsets.UTF_8), null);
            }
            return withDefaults(incoming, defaults, type);
        } catch (IOException e) {
            throw new JsonBodyException("malformed " + type.getSimpleName() + " JSON: " + e.getMessage(), e);
        }
    }

    /** Like {@link #decodeWithDefaults(byte[], Object, Class)} for an already parsed node. */
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
            throw new JsonBodyException("malformed " + type.getSimpleName() + " JSON: " + e.getMessage(), e);
        }
    }
}
