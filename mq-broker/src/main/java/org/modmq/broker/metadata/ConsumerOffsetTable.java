package org.modmq.broker.metadata;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import org.modmq.remoting.protocol.Json;
import org.modmq.remoting.protocol.JsonBodyException;
import org.modmq.remoting.protocol.body.DataVersion;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Committed consumer offsets, keyed {@code topic@group} then queue id, persisted in
 * {@code consumerOffset.json} ({@code {"dataVersion":...,"offsetTable":{"T@g":{"0":5}}}}). Commits
 * only mark the table dirty; {@link #persist()} (every {@code flushConsumerOffsetInterval} and at
 * shutdown) writes it. Thread-safe.
 */
public final class ConsumerOffsetTable {

    public static final String FILE_NAME = "consumerOffset.json";
    private static final Logger LOG = LoggerFactory.getLogger(ConsumerOffsetTable.class);
    private static final char SEPARATOR = '@';

    private final AtomicJsonFile file;
    private final Clock clock;
    private final Map<String, Map<Integer, Long>> offsets = new ConcurrentHashMap<>();
    private final AtomicBoolean dirty = new AtomicBoolean();
    private volatile DataVersion version;

    /** Persisted form. */
    public record Wrapper(DataVersion dataVersion, Map<String, Map<Integer, Long>> offsetTable) {
    }

    /**
     * Loads {@code configDir/consumerOffset.json} if present.
     *
     * @throws JsonBodyException when the file is corrupt
     */
    public ConsumerOffsetTable(Path configDir, Clock clock) {
        this.file = new AtomicJsonFile(Objects.requireNonNull(configDir, "configDir").resolve(FILE_NAME));
        this.clock = Objects.requireNonNull(clock, "clock");
        this.version = load().orElseGet(() -> DataVersion.initial(clock));
    }

    /** Stores {@code offset} as the group's next offset to consume on that queue. */
    public void commit(String group, String topic, int queueId, long offset) {
        offsets.computeIfAbsent(key(topic, group), k -> new ConcurrentHashMap<>()).put(queueId, offset);
        dirty.set(true);
    }

    public OptionalLong query(String group, String topic, int queueId) {
        Map<Integer, Long> queues = offsets.get(key(topic, group));
        Long offset = queues == null ? null : queues.get(queueId);
        return offset == null ? OptionalLong.empty() : OptionalLong.of(offset);
    }

    /** The group's offsets on {@code topic}, by queue id (a sorted copy). */
    public Map<Integer, Long> offsetsOf(String group, String topic) {
        Map<Integer, Long> queues = offsets.get(key(topic, group));
        return queues == null ? Map.of() : new TreeMap<>(queues);
    }

    /** Groups that have an offset stored on {@code topic}. */
    public Set<String> groupsOf(String topic) {
        Set<String> groups = new TreeSet<>();
        offsets.keySet().forEach(k -> {
            int at = k.lastIndexOf(SEPARATOR);
            if (at > 0 && k.substring(0, at).equals(topic)) {
                groups.add(k.substring(at + 1));
            }
        });
        return groups;
    }

    /** Topics on which {@code group} has an offset stored. */
    public Set<String> topicsOf(String group) {
        Set<String> topics = new TreeSet<>();
        offsets.keySet().forEach(k -> {
            int at = k.lastIndexOf(SEPARATOR);
            if (at > 0 && k.substring(at + 1).equals(group)) {
                topics.add(k.substring(0, at));
            }
        });
        return topics;
    }

    public void removeTopic(String topic) {
        groupsOf(topic).forEach(g -> offsets.remove(key(topic, g)));
        dirty.set(true);
    }

    public void removeGroup(String group) {
        topicsOf(group).forEach(t -> offsets.remove(key(t, group)));
        dirty.set(true);
    }

    /** The whole table as GET_ALL_CONSUMER_OFFSET answers it. */
    public Wrapper wrapper() {
        Map<String, Map<Integer, Long>> copy = new TreeMap<>();
        offsets.forEach((k, v) -> copy.put(k, new TreeMap<>(v)));
        return new Wrapper(version, copy);
    }

    /** Writes the table if anything changed since the last write. Idempotent. */
    public synchronized void persist() {
        if (dirty.getAndSet(false)) {
            version = version.next(clock);
            file.write(wrapper());
        }
    }

    private static String key(String topic, String group) {
        return topic + SEPARATOR + group;
    }

    private Optional<DataVersion> load() {
        Optional<JsonNode> root = file.read();
        if (root.isEmpty()) {
            return Optional.empty();
        }
        Wrapper loaded = Json.mapper().convertValue(root.get(), Wrapper.class);
        if (loaded.offsetTable() != null) {
            loaded.offsetTable().forEach((k, v) -> offsets.put(k, new ConcurrentHashMap<>(v)));
        }
        LOG.info("loaded offsets of {} topic@group pairs from {}", offsets.size(), file.path());
        return Optional.ofNullable(loaded.dataVersion());
    }
}
