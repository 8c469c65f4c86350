package org.modmq.broker.admin;

import java.io.IOException;
import java.nio.file.FileStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * Space used on the file system that holds a directory (or, before the directory exists, its nearest
 * existing ancestor). Stateless; each call asks the file system.
 */
public final class DiskUsage {

    private static final double GIB = 1024.0 * 1024 * 1024;

    private DiskUsage() {
    }

    /** Used fraction in [0, 1]; 0 when the file system cannot be asked. */
    public static double usedRatio(Path dir) {
        return store(dir).map(s -> {
            try {
                long total = s.getTotalSpace();
                return total <= 0 ? 0.0 : (double) (total - s.getUsableSpace()) / total;
            } catch (IOException e) {
                return 0.0;
            }
        }).orElse(0.0);
    }

    /** {@code "Total : 100.0 GiB, Free : 40.0 GiB."}, or empty text when unknown. */
    static String capacityText(Path dir) {
        return store(dir).map(s -> {
            try {
                return String.format(java.util.Locale.ROOT, "Total : %.1f GiB, Free : %.1f GiB.",
                        s.getTotalSpace() / GIB, s.getUsableSpace() / GIB);
            } catch (IOException e) {
                return "";
            }
        }).orElse("");
    }

    /** A byte count as stock brokers print one: {@code "512 B"}, {@code "1.5 KiB"}, {@code "2.0 GiB"}. */
    static String byteCountText(long bytes) {
        if (bytes < 1024) {
            return bytes + " B";
        }
        int exponent = (int) (Math.log(bytes) / Math.log(1024));
        return String.format(java.util.Locale.ROOT, "%.1f %siB", bytes / Math.pow(1024, exponent),
                "KMGTPE".charAt(exponent - 1));
    }

    private static Optional<FileStore> store(Path dir) {
        Path probe = dir.toAbsolutePath();
        while (probe != null && !Files.exists(probe)) {
            probe = probe.getParent();
        }
        if (probe == null) {
            return Optional.empty();
        }
        try {
            return Optional.of(Files.getFileStore(probe));
        } catch (IOException e) {
            return Optional.empty();
        }
    }
}
