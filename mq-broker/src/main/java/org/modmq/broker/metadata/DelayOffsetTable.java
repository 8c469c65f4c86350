package org.modmq.broker.metadata;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import org.modmq.remoting.protocol.Json;
import org.modmq.remoting.protocol.JsonBodyException;
import org.modmq.remoting.protocol.body.DataVersion;

/**
 * Progress of the delay service: delay level to the next offset to deliver in
 * {@code SCHEDULE_TOPIC_XXXX} queue (level − 1), persisted in {@code delayOffset.json}
 * ({@code {"dataVersion":...,"offsetTable":{"3":1}}}). Updates mark it dirty; {@link #persist()}
 * writes it. Thread-safe.
 */
public final class DelayOffsetTable {

    public static final String FILE_NAME = "delayOffset.json";

    private final AtomicJsonFile file;
    private final Clock clock;
    private final Map<Integer, Long> offsets = new ConcurrentHashMap<>();
    private final AtomicBoolean dirty = new AtomicBoolean();
    private volatile DataVersion version;

    /** Persisted form, also the GET_ALL_DELAY_OFFSET body. */
    public record Wrapper(DataVersion dataVersion, Map<Integer, Long> offsetTable) {
    }

    /**
     * Loads {@code configDir/delayOffset.json} if present.
     *
     * @throws JsonBodyException when the file is corrupt
     */
    public DelayOffsetTable(Path configDir, Clock clock) {
        this.file = new AtomicJsonFile(Objects.requireNonNull(configDir, "configDir").resolve(FILE_NAME));
        this.clock = Objects.requireNonNull(clock, "clock");
        this.version = load().orElseGet(() -> DataVersion.initial(clock));
    }

    public void update(int delayLevel, long offset) {
        offsets.put(delayLevel, offset);
        dirty.set(true);
    }

    public OptionalLong get(int delayLevel) {
        Long offset = offsets.get(delayLevel);
        return offset == null ? OptionalLong.empty() : OptionalLong.of(offset);
    }

    public Wrapper wrapper() {
        return new Wrapper(version, new TreeMap<>(offsets));
    }

    /** Writes the table if it changed since the last write. Idempotent. */
    public synchronized void persist() {
        if (dirty.getAndSet(false)) {
            version = version.next(clock);
            file.write(wrapper());
        }
    }

    private Optional<DataVersion> load() {
        Optional<JsonNode> root = file.read();
        if (root.isEmpty()) {
            return Optional.empty();
        }
        Wrapper loaded = Json.mapper().convertValue(root.get(), Wrapper.class);
        if (loaded.offsetTable() != null) {
            offsets.putAll(loaded.offsetTable());
        }
        return Optional.ofNullable(loaded.dataVersion());
    }
}
