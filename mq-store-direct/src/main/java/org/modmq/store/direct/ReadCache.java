package org.modmq.store.direct;

import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The backend's own cache of recently read file chunks, least recently used first out, bounded in bytes.
 * Shared by every segment of one backend and keyed by segment id and chunk index. Thread-safe.
 *
 * <p>A segment drops the chunks of a range when it writes that range out to the file, and all its
 * chunks when it closes, so a cached chunk never disagrees with the file.
 */
final class ReadCache {

    private record Key(long segment, int chunk) {
    }

    private final long maxBytes;
    private final LinkedHashMap<Key, byte[]> chunks = new LinkedHashMap<>(16, 0.75f, true);
    private long bytes;

    /** @param maxBytes bound on the cached bytes; 0 disables the cache */
    ReadCache(long maxBytes) {
        if (maxBytes < 0) {
            throw new IllegalArgumentException("maxBytes " + maxBytes + " is negative");
        }
        this.maxBytes = maxBytes;
    }

    /** The cached chunk, or null. The caller must not modify the array. */
    synchronized byte[] get(long segment, int chunk) {
        return chunks.get(new Key(segment, chunk));
    }

    /** Caches {@code data}, which the cache now owns, evicting the least recently used chunks. */
    synchronized void put(long segment, int chunk, byte[] data) {
        if (data.length > maxBytes) {
            return;
        }
        byte[] previous = chunks.put(new Key(segment, chunk), data);
        bytes += data.length - (previous == null ? 0 : previous.length);
        Iterator<byte[]> eldest = chunks.values().iterator();
        while (bytes > maxBytes && eldest.hasNext()) {
            bytes -= eldest.next().length;
            eldest.remove();
        }
    }

    /** Drops chunks {@code fromChunk..toChunk} (inclusive) of {@code segment}. */
    synchronized void invalidate(long segment, int fromChunk, int toChunk) {
        if (chunks.isEmpty()) {
            return;
        }
        for (int chunk = fromChunk; chunk <= toChunk; chunk++) {
            byte[] removed = chunks.remove(new Key(segment, chunk));
            if (removed != null) {
                bytes -= removed.length;
            }
        }
    }

    /** Drops every chunk of {@code segment}. */
    synchronized void invalidateAll(long segment) {
        Iterator<Map.Entry<Key, byte[]>> entries = chunks.entrySet().iterator();
        while (entries.hasNext()) {
            Map.Entry<Key, byte[]> entry = entries.next();
            if (entry.getKey().segment() == segment) {
                bytes -= entry.getValue().length;
                entries.remove();
            }
        }
    }

    /** Bytes cached now. */
    synchronized long size() {
        return bytes;
    }
}
