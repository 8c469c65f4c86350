package org.modmq.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The resident set size of a local broker process, read from {@code /proc/<pid>/status} ({@code VmRSS});
 * remembers the largest value seen. Without a pid (or off Linux) every read answers -1. Thread-safe.
 */
final class BrokerRss {

    private final long pid;
    private final AtomicLong maxKib = new AtomicLong(-1);

    BrokerRss(long pid) {
        this.pid = pid;
    }

    /** The RSS now in KiB, -1 when unknown; also updates the maximum. */
    long sampleKib() {
        if (pid <= 0) {
            return -1;
        }
        try {
            for (String line : Files.readAllLines(Path.of("/proc", Long.toString(pid), "status"))) {
                if (line.startsWith("VmRSS:")) {
                    long kib = Long.parseLong(line.substring(6).trim().split("\\s+")[0]);
                    maxKib.accumulateAndGet(kib, Math::max);
                    return kib;
                }
            }
        } catch (IOException | RuntimeException e) {
            return -1;
        }
        return -1;
    }

    /** The largest RSS sampled, KiB, -1 when none was. */
    long maxKib() {
        return maxKib.get();
    }

    /** KiB as MiB with one decimal, {@code n/a} when unknown. */
    static String mib(long kib) {
        return kib < 0 ? "n/a" : String.format(java.util.Locale.ROOT, "%.1f", kib / 1024.0);
    }
}
