package org.modmq.store.retention;

import java.io.IOException;
import java.nio.file.FileStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Objects;
import java.util.function.DoubleSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * How full the file system holding a store is, as the fraction (0..1) that retention compares with
 * {@code diskMaxUsedSpaceRatio} and {@code diskSpaceWarningLevelRatio}. Stateless and thread-safe.
 */
public final class DiskUsage {

    private static final Logger LOG = LoggerFactory.getLogger(DiskUsage.class);

    private DiskUsage() {
    }

    /** The usage of the file system holding {@code root} (created if missing), probed at each call; 0 when it cannot be read. */
    public static DoubleSupplier of(Path root) {
        Objects.requireNonNull(root, "root");
        return () -> {
            try {
                Files.createDirectories(root);
                FileStore store = Files.getFileStore(root);
                return usedRatio(store.getTotalSpace(), store.getUnallocatedSpace(), store.getUsableSpace());
            } catch (IOException e) {
                LOG.warn("cannot probe disk usage of {}: {}", root, e.getMessage());
                return 0;
            }
        };
    }

    /**
     * The used fraction of a file system of {@code total} bytes with {@code free} bytes unallocated, of which
     * {@code usable} are available to this process: {@code used / (used + usable)} with {@code used = total
     * - free}, as {@code df} and RocketMQ count it. Blocks reserved (for root, or for another user) are
     * neither used nor usable; counting them as used made a 29% full disk with a large reserve look 71%
     * full, and retention delete unexpired segments above {@code diskMaxUsedSpaceRatio}.
     */
    static double usedRatio(long total, long free, long usable) {
        long used = Math.max(0, total - free);
        long entire = used + Math.max(0, usable);
        return entire <= 0 ? 0 : Math.min(1.0, (double) used / entire);
    }
}
