package org.modmq.store.queue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;
import org.modmq.api.spi.storage.StorageBackend;
import org.modmq.api.spi.storage.StorageException;
import org.modmq.store.format.TopicQueue;
import org.modmq.store.segment.SegmentFiles;

/**
 * Every ConsumeQueue under {@code <root>/consumequeue/<topic>/<queueId>/}. Thread-safe lookups;
 * queues are created by the dispatch thread.
 */
public final class ConsumeQueueTable implements AutoCloseable {

    private final StorageBackend backend;
    private final Path directory;
    private final int entriesPerSegment;
    private final Map<TopicQueue, ConsumeQueue> queues = new ConcurrentHashMap<>();
    /** File beside {@code consumequeue/} marking a store whose queues have no holes. */
    static final String DENSE_MARKER = "consumequeue.dense";
    private volatile boolean dense;

    public ConsumeQueueTable(StorageBackend backend, Path directory, int entriesPerSegment) {
        this.backend = Objects.requireNonNull(backend, "backend");
        this.directory = Objects.requireNonNull(directory, "directory");
        this.entriesPerSegment = entriesPerSegment;
    }

    /**
     * Opens every queue found on disk, one after the other (opening them in parallel was tried and
     * measured slower on two busy cores; see docs/performance.md).
     */
    public void load() {
        try {
            Files.createDirectories(directory);
            dense = denseStore();
            try (Stream<Path> topics = Files.list(directory)) {
                for (Path topicDir : topics.filter(Files::isDirectory).toList()) {
                    try (Stream<Path> ids = Files.list(topicDir)) {
                        for (Path idDir : ids.filter(Files::isDirectory).toList()) {
                            String name = idDir.getFileName().toString();
                            if (name.chars().allMatch(Character::isDigit) && !name.isEmpty()) {
                                get(topicDir.getFileName().toString(), Integer.parseInt(name), true);
                            }
                        }
                    }
                }
            }
        } catch (IOException e) {
            throw new StorageException("cannot list " + directory, e);
        }
    }

    /**
     * Whether every queue here gives each queue offset its entry: true for a store whose queues this
     * version created (the marker beside the directory says so), false for one an earlier modmq wrote
     * (it gave prepared and rolled-back transaction records an offset without an entry). A lost marker
     * only costs the slower scan.
     */
    private boolean denseStore() throws IOException {
        Path marker = directory.resolveSibling(DENSE_MARKER);
        if (Files.exists(marker)) {
            return true;
        }
        boolean empty;
        try (Stream<Path> entries = Files.list(directory)) {
            empty = entries.noneMatch(Files::isDirectory);
        }
        if (empty) {
            Files.writeString(marker, "every queue offset has its entry\n");
        }
        return empty;
    }

    private ConsumeQueue open(TopicQueue key) {
        return new ConsumeQueue(key.topic(), key.queueId(), new SegmentFiles(backend,
                directory.resolve(key.topic()).resolve(Integer.toString(key.queueId())),
                (long) entriesPerSegment * ConsumeQueue.ENTRY, ConsumeQueue.fileCapacity(entriesPerSegment)), dense);
    }

    /** The queue, or null when it does not exist and {@code create} is false. */
    public ConsumeQueue get(String topic, int queueId, boolean create) {
        TopicQueue key = new TopicQueue(topic, queueId);
        if (!create) {
            return queues.get(key);
        }
        return queues.computeIfAbsent(key, this::open);
    }

    /** Forces every queue's entries written so far. */
    public void flushAll() {
        queues.values().forEach(ConsumeQueue::flush);
    }

    public Collection<ConsumeQueue> all() {
        return List.copyOf(queues.values());
    }

    public Set<String> topics() {
        Set<String> topics = new TreeSet<>();
        queues.keySet().forEach(key -> topics.add(key.topic()));
        return topics;
    }

    public Set<Integer> queueIds(String topic) {
        Set<Integer> ids = new TreeSet<>();
        queues.keySet().stream().filter(key -> key.topic().equals(topic)).forEach(key -> ids.add(key.queueId()));
        return ids;
    }

    @Override
    public void close() {
        queues.values().forEach(ConsumeQueue::close);
        queues.clear();
    }
}
