package org.modmq.store.retention;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DiskUsageTest {

    private static final long GIB = 1L << 30;

    @TempDir
    Path root;

    @Test
    void blocksReservedForAnotherUserAreNeitherUsedNorUsable() {
        // The shape of an ext4 file system with a large reserve (df: Size 252G, Used 30G, Avail 72G, Use% 30%):
        // the reserve is free space this process may not use, not space in use.
        assertThat(DiskUsage.usedRatio(252 * GIB, 222 * GIB, 72 * GIB)).isCloseTo(30.0 / 102, within(1e-9));
    }

    @Test
    void withoutReserveTheUsedShareOfTheWholeDisk() {
        assertThat(DiskUsage.usedRatio(100 * GIB, 40 * GIB, 40 * GIB)).isCloseTo(0.6, within(1e-9));
        assertThat(DiskUsage.usedRatio(100 * GIB, 0, 0)).isEqualTo(1.0);
    }

    @Test
    void anEmptyOrUnreadableFileSystemCountsAsUnused() {
        assertThat(DiskUsage.usedRatio(0, 0, 0)).isZero();
    }

    @Test
    void probesTheFileSystemOfTheStoreRoot() {
        double usage = DiskUsage.of(root.resolve("store")).getAsDouble();
        assertThat(usage).isBetween(0.0, 1.0);
        assertThat(root.resolve("store")).isDirectory();
    }
}
