package org.modmq.store.mmap;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Bounds how much of the backend's segments stays mapped while nobody uses it. Every page touched
 * through a mapping counts in the process's resident set until the mapping goes, so a broker that
 * kept every segment mapped whole would grow by the size of everything it wrote or read.
 *
 * <p>Chunk mappings register here when their segment installs them. After each installation and each
 * flush, the idle ones (no access running, no view out) that are clean (nothing written through them
 * waits for a flush) are retired, least recently used first, until those left add up to at most
 * {@code idleBytes}. Mappings in use or waiting for a flush are never retired; they add to the bound.
 * A retired chunk is mapped again on its next access.
 *
 * <p>Thread-safe; retirement runs under this object's lock.
 */
final class MappingBudget {

    private final long idleBytes;
    private final Set<SegmentMapping> installed = ConcurrentHashMap.newKeySet();
    private volatile long epoch;

    /** @param idleBytes bytes of idle, clean chunk mappings kept for reuse, >= 0 */
    MappingBudget(long idleBytes) {
        if (idleBytes < 0) {
            throw new IllegalArgumentException("idle mapping budget must not be negative, was " + idleBytes);
        }
        this.idleBytes = idleBytes;
    }

    /** The current use epoch; accesses stamp their mapping with it. */
    long epoch() {
        return epoch;
    }

    /** Registers a chunk mapping just installed by its segment, then trims. */
    void installed(SegmentMapping mapping) {
        installed.add(mapping);
        trim();
    }

    /** Forgets a chunk mapping its segment took out of the chunk table. */
    void removed(SegmentMapping mapping) {
        installed.remove(mapping);
    }

    /** Retires idle, clean chunk mappings, least recently used first, down to the budget. */
    synchronized void trim() {
        epoch++;
        List<SegmentMapping> candidates = new ArrayList<>();
        long bytes = 0;
        for (SegmentMapping mapping : installed) {
            if (mapping.idle() && mapping.clean()) {
                candidates.add(mapping);
                bytes += mapping.length();
            }
        }
        if (bytes <= idleBytes) {
            return;
        }
        candidates.sort(Comparator.comparingLong(SegmentMapping::lastUse));
        for (SegmentMapping mapping : candidates) {
            if (bytes <= idleBytes) {
                break;
            }
            if (mapping.owner().retire(mapping)) {
                bytes -= mapping.length();
            }
        }
    }

    /** Chunk mappings currently installed in their segments' chunk tables. */
    int installedCount() {
        return installed.size();
    }

    /** Bytes of the chunk mappings currently installed. */
    long installedBytes() {
        return installed.stream().mapToLong(SegmentMapping::length).sum();
    }
}
