package org.modmq.store.segment;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.stream.Stream;
import org.modmq.api.spi.storage.Segment;
import org.modmq.api.spi.storage.StorageBackend;
import org.modmq.api.spi.storage.StorageException;

/**
 * The segment files of one log in one directory, each named by its 20-digit zero-padded start offset.
 * A segment covers {@code span} logical bytes of the log and has {@code capacity ≥ span} physical bytes
 * (a ConsumeQueue leaves the rounding-up unused).
 *
 * <p>Thread-safety: lookups are safe from any thread; creation, deletion and close are made by one
 * owner thread at a time (the log's writer or its maintenance).
 */
public final class SegmentFiles implements AutoCloseable {

    private final StorageBackend backend;
    private final Path directory;
    private final long span;
    private final int capacity;
    private final ConcurrentSkipListMap<Long, Segment> segments = new ConcurrentSkipListMap<>();

    public SegmentFiles(StorageBackend backend, Path directory, long span, int capacity) {
        this.backend = Objects.requireNonNull(backend, "backend");
        this.directory = Objects.requireNonNull(directory, "directory");
        if (span <= 0 || capacity < span) {
            throw new IllegalArgumentException("span " + span + " and capacity " + capacity + " do not fit");
        }
        this.span = span;
        this.capacity = capacity;
    }

    /** The 20-digit file name of a segment starting at {@code start}. */
    public static String fileName(long start) {
        return String.format("%020d", start);
    }

    /** Opens every segment file present in the directory (creating the directory). */
    public void load() {
        try {
            Files.createDirectories(directory);
            try (Stream<Path> files = Files.list(directory)) {
                for (Path file : files.toList()) {
                    String name = file.getFileName().toString();
                    if (name.length() == 20 && name.chars().allMatch(Character::isDigit)) {
                        long start = Long.parseLong(name);
                        if (start % span != 0) {
                            throw new IllegalStateException(file + " does not start at a multiple of " + span);
                        }
                        segments.put(start, backend.open(file, capacity));
                    }
                }
            }
        } catch (IOException e) {
            throw new StorageException("cannot list " + directory, e);
        }
    }

    /** Whether the backend keeps written bytes in this process until a flush. */
    public boolean holdsWritesInProcess() {
        return backend.holdsWritesInProcess();
    }

    public Path directory() {
        return directory;
    }

    public long span() {
        return span;
    }

    public int capacity() {
        return capacity;
    }

    /** Start offset of the segment that holds {@code offset}. */
    public long startOf(long offset) {
        return offset - Math.floorMod(offset, span);
    }

    /** The segment holding {@code offset}, or null. */
    public Segment find(long offset) {
        Map.Entry<Long, Segment> entry = segments.floorEntry(offset);
        return entry == null || offset >= entry.getKey() + span ? null : entry.getValue();
    }

    /** The segment starting at {@code start}, opened (and created) when absent. Owner thread only. */
    public Segment getOrCreate(long start) {
        if (start % span != 0) {
            throw new IllegalArgumentException(start + " is not a segment start");
        }
        Segment segment = segments.get(start);
        if (segment == null) {
            try {
                Files.createDirectories(directory);
            } catch (IOException e) {
                throw new StorageException("cannot create " + directory, e);
            }
            segment = backend.open(directory.resolve(fileName(start)), capacity);
            segments.put(start, segment);
        }
        return segment;
    }

    public boolean isEmpty() {
        return segments.isEmpty();
    }

    /** Start offset of the first segment, or -1. */
    public long firstStart() {
        Map.Entry<Long, Segment> first = segments.firstEntry();
        return first == null ? -1 : first.getKey();
    }

    /** Start offset of the last segment, or -1. */
    public long lastStart() {
        Map.Entry<Long, Segment> last = segments.lastEntry();
        return last == null ? -1 : last.getKey();
    }

    /** Start offsets of all segments, ascending (a snapshot). */
    public List<Long> starts() {
        return new ArrayList<>(segments.keySet());
    }

    /** Deletes the segment starting at {@code start}, if present. Owner thread only. */
    public void delete(long start) {
        Segment segment = segments.remove(start);
        if (segment != null) {
            segment.delete();
        }
    }

    /** Deletes every segment starting at or above {@code start}. Owner thread only. */
    public void deleteFrom(long start) {
        for (Long key : new ArrayList<>(segments.tailMap(start, true).keySet())) {
            delete(key);
        }
    }

    /** Forces every segment to disk (used before a clean close of small logs). */
    public void flushAll() {
        segments.values().forEach(segment -> segment.flush(segment.capacity()));
    }

    /** Closes every segment. Idempotent. */
    @Override
    public void close() {
        for (Long key : new ArrayList<>(segments.keySet())) {
            Segment segment = segments.remove(key);
            if (segment != null) {
                segment.close();
            }
        }
    }
}
