package org.modmq.broker.timer;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.function.ObjLongConsumer;
import java.util.stream.Stream;

/**
 * The append-only timer log: {@link TimerRecord}s in segment files of {@code segmentRecords} records,
 * each named by the 20-digit log position it starts at. A position is a byte offset over the whole log.
 * The log opens at the end of its last whole, valid record (a torn tail is cut off). Whole segments are
 * deleted from the front once the wheel no longer needs them ({@link #deleteBefore}).
 *
 * <p>Not thread-safe: owned by the timer agent's thread. {@link #close()} is idempotent.
 */
final class TimerLog implements AutoCloseable {

    private static final int SCAN_BUFFER = 64 * 1024 / TimerRecord.SIZE * TimerRecord.SIZE;

    private final Path dir;
    private final long segmentBytes;
    private final TreeMap<Long, FileChannel> segments = new TreeMap<>();
    private final ByteBuffer one = ByteBuffer.allocate(TimerRecord.SIZE);
    private long end;
    /** Every record below this position is forced. */
    private long forced;

    TimerLog(Path dir, int segmentRecords) {
        this.dir = Objects.requireNonNull(dir, "dir");
        this.segmentBytes = (long) segmentRecords * TimerRecord.SIZE;
        try {
            Files.createDirectories(dir);
            try (Stream<Path> files = Files.list(dir)) {
                for (Path file : files.filter(f -> f.getFileName().toString().matches("\\d{20}")).toList()) {
                    segments.put(Long.parseLong(file.getFileName().toString()), open(file));
                }
            }
            end = segments.isEmpty() ? 0 : validEnd(segments.lastKey());
            if (segments.isEmpty()) {
                segments.put(0L, open(segmentPath(0)));
            }
        } catch (IOException e) {
            close();
            throw new UncheckedIOException("cannot open the timer log in " + dir, e);
        }
    }

    /** The position after the last record. */
    long end() {
        return end;
    }

    /** The position of the first record still held. */
    long start() {
        return segments.firstKey();
    }

    /** Appends {@code record}; returns its position. */
    long append(TimerRecord record) {
        long base = end / segmentBytes * segmentBytes;
        FileChannel channel = segments.get(base);
        try {
            if (channel == null) {
                channel = open(segmentPath(base));
                segments.put(base, channel);
            }
            one.clear();
            record.writeTo(one);
            one.flip();
            long position = end - base;
            while (one.hasRemaining()) {
                position += channel.write(one, position);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot append to the timer log in " + dir, e);
        }
        long at = end;
        end += TimerRecord.SIZE;
        return at;
    }

    /** The record at {@code position}, or null when it is not held or not valid. */
    TimerRecord read(long position) {
        if (position < 0 || position >= end || position % TimerRecord.SIZE != 0) {
            return null;
        }
        Map.Entry<Long, FileChannel> segment = segments.floorEntry(position);
        if (segment == null) {
            return null;
        }
        try {
            one.clear();
            long at = position - segment.getKey();
            while (one.hasRemaining()) {
                if (segment.getValue().read(one, at + one.position()) < 0) {
                    return null;
                }
            }
            return TimerRecord.readFrom(one, 0);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the timer log in " + dir, e);
        }
    }

    /** Calls {@code visitor} with every valid record from {@code from} to {@code to} and its position, in order. */
    void scan(long from, long to, ObjLongConsumer<TimerRecord> visitor) {
        ByteBuffer buffer = ByteBuffer.allocate(SCAN_BUFFER);
        long position = Math.max(from, start());
        while (position < Math.min(to, end)) {
            Map.Entry<Long, FileChannel> segment = segments.floorEntry(position);
            long segmentEnd = Math.min(Math.min(to, end), segment.getKey() + segmentBytes);
            buffer.clear();
            buffer.limit((int) Math.min(buffer.capacity(), segmentEnd - position));
            try {
                while (buffer.hasRemaining()) {
                    if (segment.getValue().read(buffer, position - segment.getKey() + buffer.position()) < 0) {
                        break;
                    }
                }
            } catch (IOException e) {
                throw new UncheckedIOException("cannot read the timer log in " + dir, e);
            }
            buffer.flip();
            if (buffer.remaining() < TimerRecord.SIZE) {
                return;
            }
            for (int at = 0; at + TimerRecord.SIZE <= buffer.limit(); at += TimerRecord.SIZE) {
                TimerRecord record = TimerRecord.readFrom(buffer, at);
                if (record != null) {
                    visitor.accept(record, position + at);
                }
            }
            position += buffer.limit() / TimerRecord.SIZE * TimerRecord.SIZE;
        }
    }

    /** Cuts the log back to {@code position} (a record boundary at or below the end). */
    void truncate(long position) {
        if (position >= end) {
            return;
        }
        long keep = Math.max(position, start()) / TimerRecord.SIZE * TimerRecord.SIZE;
        try {
            for (Long base : new ArrayList<>(segments.tailMap(keep, true).keySet())) {
                if (base > segments.firstKey()) {
                    segments.remove(base).close();
                    Files.deleteIfExists(segmentPath(base));
                }
            }
            Map.Entry<Long, FileChannel> last = segments.lastEntry();
            last.getValue().truncate(Math.max(0, keep - last.getKey()));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot truncate the timer log in " + dir, e);
        }
        end = keep;
        forced = Math.min(forced, end);
    }

    /** Deletes every whole segment that ends at or before {@code position}, never the last one. */
    List<Long> deleteBefore(long position) {
        List<Long> deleted = new ArrayList<>();
        while (segments.size() > 1 && segments.firstKey() + segmentBytes <= Math.min(position, end)) {
            long base = segments.firstKey();
            try {
                segments.remove(base).close();
                Files.deleteIfExists(segmentPath(base));
            } catch (IOException e) {
                throw new UncheckedIOException("cannot delete timer log segment " + segmentPath(base), e);
            }
            deleted.add(base);
        }
        return deleted;
    }

    /** The segment bases, oldest first, with their end positions. */
    List<long[]> segmentRanges() {
        List<long[]> ranges = new ArrayList<>();
        for (long base : segments.keySet()) {
            ranges.add(new long[] {base, Math.min(end, base + segmentBytes)});
        }
        return ranges;
    }

    /** Forces every record appended so far to disk. */
    void force() {
        try {
            Long from = segments.floorKey(forced);
            for (FileChannel channel : segments.tailMap(from == null ? start() : from, true).values()) {
                channel.force(false);
            }
            forced = end;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot force the timer log in " + dir, e);
        }
    }

    private long validEnd(long lastBase) throws IOException {
        long[] valid = {lastBase};
        long size = segments.get(lastBase).size();
        end = lastBase + size / TimerRecord.SIZE * TimerRecord.SIZE;
        long[] expected = {lastBase};
        scan(lastBase, end, (record, position) -> {
            if (position == expected[0]) {
                valid[0] = position + TimerRecord.SIZE;
                expected[0] = valid[0];
            }
        });
        segments.get(lastBase).truncate(valid[0] - lastBase);
        return valid[0];
    }

    private Path segmentPath(long base) {
        return dir.resolve(String.format("%020d", base));
    }

    private static FileChannel open(Path file) throws IOException {
        return FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.READ, StandardOpenOption.WRITE);
    }

    @Override
    public void close() {
        IOException first = null;
        for (FileChannel channel : segments.values()) {
            try {
                channel.close();
            } catch (IOException e) {
                first = first == null ? e : first;
            }
        }
        segments.clear();
        if (first != null) {
            throw new UncheckedIOException("cannot close the timer log in " + dir, first);
        }
    }
}
