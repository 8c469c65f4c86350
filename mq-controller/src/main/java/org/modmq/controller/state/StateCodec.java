package org.modmq.controller.state;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.MapperFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * Bytes of Raft log entries ({@link ControllerEvent}), of event results and of snapshots
 * ({@link ControllerState}): UTF-8 JSON with sorted properties, so equal values give equal bytes.
 * Private to the controller peers; brokers never see it. Unknown properties are an error: a peer must
 * not silently drop a field a newer peer wrote. Thread-safe.
 */
public final class StateCodec {

    private static final ObjectMapper MAPPER = JsonMapper.builder()
            .enable(MapperFeature.SORT_PROPERTIES_ALPHABETICALLY)
            .enable(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS)
            .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .build();

    private StateCodec() {
    }

    /** @return the event's bytes */
    public static byte[] encodeEvent(ControllerEvent event) {
        return write(event);
    }

    /** @throws IllegalArgumentException when the bytes are not an event */
    public static ControllerEvent decodeEvent(byte[] bytes) {
        return read(bytes, ControllerEvent.class);
    }

    /** @return the result's bytes */
    public static byte[] encodeResult(EventResult result) {
        return write(result);
    }

    /** @throws IllegalArgumentException when the bytes are not a result */
    public static EventResult decodeResult(byte[] bytes) {
        return read(bytes, EventResult.class);
    }

    /** @return the state's bytes */
    public static byte[] encodeState(ControllerState state) {
        return write(state);
    }

    /** @throws IllegalArgumentException when the bytes are not a state */
    public static ControllerState decodeState(byte[] bytes) {
        return read(bytes, ControllerState.class);
    }

    private static byte[] write(Object value) {
        try {
            return MAPPER.writeValueAsBytes(value);
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException("cannot encode " + value, e);
        }
    }

    private static <T> T read(byte[] bytes, Class<T> type) {
        try {
            return MAPPER.readValue(bytes, type);
        } catch (IOException e) {
            throw new IllegalArgumentException("not a " + type.getSimpleName() + ": " + e.getMessage(), e);
        }
    }
}
