package org.modmq.store.index;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.stream.Stream;
import org.modmq.api.spi.storage.StorageBackend;
import org.modmq.api.spi.storage.StorageException;
import org.modmq.store.format.RecordSummary;

/**
 * The index files under {@code <root>/index}, named {@code yyyyMMddHHmmssSSS}. Keys are
 * {@code topic#UNIQ_KEY} and {@code topic#key} for each space-separated {@code KEYS} entry; a full file
 * rolls to a new one. Thread-safe (one monitor).
 */
public final class IndexStore implements AutoCloseable {

    private static final DateTimeFormatter NAME = DateTimeFormatter.ofPattern("yyyyMMddHHmmssSSS");

    private final StorageBackend backend;
    private final Path directory;
    private final Clock clock;
    private final int slots;
    private final int maxEntries;
    private final List<IndexFile> files = new ArrayList<>();
    private long skipUpTo = -1;

    public IndexStore(StorageBackend backend, Path directory, Clock clock, int slots, int maxEntries) {
        this.backend = Objects.requireNonNull(backend, "backend");
        this.directory = Objects.requireNonNull(directory, "directory");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.slots = slots;
        this.maxEntries = maxEntries;
    }

    /** Opens the files present. */
    public synchronized void load() {
        try {
            Files.createDirectories(directory);
            try (Stream<Path> list = Files.list(directory)) {
                for (Path file : list.sorted().toList()) {
                    String name = file.getFileName().toString();
                    if (name.length() == 17 && name.chars().allMatch(Character::isDigit)) {
                        files.add(new IndexFile(backend.open(file, IndexFile.capacity(slots, maxEntries)), slots,
                                maxEntries));
                    }
                }
            }
        } catch (IOException e) {
            throw new StorageException("cannot list " + directory, e);
        }
        skipUpTo = indexedOffset();
    }

    /**
     * Recovery: the log now ends at {@code commitLogEnd}; records re-dispatched below the highest
     * indexed offset are skipped (already indexed), records at or above the end are indexed anew.
     */
    public synchronized void resumeBelow(long commitLogEnd) {
        skipUpTo = Math.min(indexedOffset(), commitLogEnd - 1);
    }

    /** The highest commit-log offset indexed, -1 when nothing is. */
    public synchronized long indexedOffset() {
        for (int i = files.size() - 1; i >= 0; i--) {
            if (!files.get(i).empty()) {
                return files.get(i).endPhyOffset();
            }
        }
        return -1;
    }

    /** Indexes one dispatched record (records at or below {@link #indexedOffset()} are skipped). */
    public synchronized void add(RecordSummary record) {
        if (record.commitLogOffset() <= skipUpTo) {
            return;
        }
        String uniq = record.uniqKey();
        if (uniq != null && !uniq.isEmpty()) {
            put(record.topic() + "#" + uniq, record);
        }
        String keys = record.keys();
        if (keys != null) {
            for (String key : keys.split(" ")) {
                if (!key.isEmpty()) {
                    put(record.topic() + "#" + key, record);
                }
            }
        }
    }

    private void put(String key, RecordSummary record) {
        IndexFile last = files.isEmpty() ? null : files.get(files.size() - 1);
        if (last == null || !last.put(key, record.commitLogOffset(), record.storeTimestamp())) {
            if (last != null) {
                last.flush();
            }
            last = newFile();
            last.put(key, record.commitLogOffset(), record.storeTimestamp());
        }
    }

    private IndexFile newFile() {
        long millis = clock.millis();
        Path file;
        do {
            file = directory.resolve(NAME.format(Instant.ofEpochMilli(millis++).atZone(ZoneId.systemDefault())));
        } while (Files.exists(file));
        IndexFile created = new IndexFile(backend.open(file, IndexFile.capacity(slots, maxEntries)), slots, maxEntries);
        files.add(created);
        return created;
    }

    /** Commit-log offsets of records indexed under {@code topic#key}, newest first, at most {@code maxNum}. */
    public synchronized List<Long> query(String topic, String key, int maxNum, long begin, long end) {
        List<Long> out = new ArrayList<>();
        for (int i = files.size() - 1; i >= 0 && out.size() < maxNum; i--) {
            files.get(i).query(topic + "#" + key, maxNum, begin, end, out);
        }
        return out;
    }

    /** Time of the newest indexed record, 0 when none. */
    public synchronized long lastUpdateTimestamp() {
        return files.isEmpty() ? 0 : files.get(files.size() - 1).endTimestamp();
    }

    /** Deletes files (never the last) whose every entry is below {@code commitLogMin}; returns how many. */
    public synchronized int dropBelow(long commitLogMin) {
        int deleted = 0;
        while (files.size() > 1 && files.get(0).endPhyOffset() < commitLogMin) {
            files.remove(0).segment().delete();
            deleted++;
        }
        return deleted;
    }

    /** Writes the slots and header of the file being filled into its segment (not forced). */
    public synchronized void writeThrough() {
        if (!files.isEmpty()) {
            files.get(files.size() - 1).writeThrough();
        }
    }

    public synchronized void flush() {
        files.forEach(IndexFile::flush);
    }

    @Override
    public synchronized void close() {
        files.forEach(IndexFile::close);
        files.clear();
    }
}
