package org.modmq.store;

import java.nio.file.Path;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import org.modmq.api.config.ConfigException;
import org.modmq.api.config.ConfigValues;
import org.modmq.api.message.DelayLevels;

/**
 * The store's settings, parsed once from {@code broker.conf} keys (RocketMQ names). Immutable.
 *
 * @param rootDir {@code storePathRootDir} (default: the plugin context's store root)
 * @param commitLogDir {@code storePathCommitLog} (default {@code <root>/commitlog})
 * @param commitLogSegmentSize {@code mappedFileSizeCommitLog}, bytes, a multiple of 4096 (default 1 GiB)
 * @param consumeQueueEntries entries per ConsumeQueue file: {@code mappedFileSizeConsumeQueue} / 20
 *     (default 300000); the file is rounded up to a multiple of 4096 bytes
 * @param maxMessageSize {@code maxMessageSize}, bytes of one message body (default 4 MiB); a stored record
 *     may be 64 KiB larger
 * @param flushDiskType {@code flushDiskType}: the flush policy's provider name (default ASYNC_FLUSH)
 * @param storeBackend {@code storeBackend}: the storage backend's provider name (default mmap)
 * @param fileReservedHours {@code fileReservedTime}, hours (default 72)
 * @param deleteHours {@code deleteWhen}, hours separated by ';' (default "04")
 * @param diskMaxUsedSpaceRatio {@code diskMaxUsedSpaceRatio}, percent (default 75)
 * @param diskSpaceCleanForciblyRatio {@code diskSpaceCleanForciblyRatio}, percent (default 85, RocketMQ's):
 *     above it retention deletes the oldest segments whether expired or not
 * @param diskSpaceWarningLevelRatio {@code diskSpaceWarningLevelRatio}, 0..1 (default 0.90)
 * @param maxHashSlotNum {@code maxHashSlotNum} (default 5000000)
 * @param maxIndexNum {@code maxIndexNum} (default 20000000)
 * @param delayLevels {@code messageDelayLevel}: the delivery time dispatch gives SCHEDULE_TOPIC_XXXX entries
 *     (default RocketMQ's 18 levels)
 * @param values all settings, handed on to the flush policy
 */
public record StoreConfig(Path rootDir, Path commitLogDir, int commitLogSegmentSize, int consumeQueueEntries,
                          int maxMessageSize, String flushDiskType, String storeBackend, int fileReservedHours,
                          Set<Integer> deleteHours, int diskMaxUsedSpaceRatio, int diskSpaceCleanForciblyRatio,
                          double diskSpaceWarningLevelRatio,
                          int maxHashSlotNum, int maxIndexNum, DelayLevels delayLevels, ConfigValues values) {

    public StoreConfig {
        Objects.requireNonNull(rootDir, "rootDir");
        Objects.requireNonNull(commitLogDir, "commitLogDir");
        Objects.requireNonNull(delayLevels, "delayLevels");
        Objects.requireNonNull(values, "values");
        deleteHours = Set.copyOf(deleteHours);
        if (commitLogSegmentSize <= 0 || commitLogSegmentSize % 4096 != 0) {
            throw new ConfigException("mappedFileSizeCommitLog=" + commitLogSegmentSize
                    + " must be a positive multiple of 4096");
        }
        if (consumeQueueEntries <= 0) {
            throw new ConfigException("mappedFileSizeConsumeQueue must hold at least one 20-byte entry");
        }
    }

    /** Parses the keys above from {@code values}; {@code defaultRoot} when {@code storePathRootDir} is absent. */
    public static StoreConfig from(ConfigValues values, Path defaultRoot) {
        Path root = values.get("storePathRootDir").map(Path::of).orElse(defaultRoot);
        Path commitLog = values.get("storePathCommitLog").map(Path::of).orElse(root.resolve("commitlog"));
        Set<Integer> hours = new TreeSet<>();
        for (String hour : values.string("deleteWhen", "04").split(";")) {
            try {
                hours.add(Integer.parseInt(hour.trim()));
            } catch (NumberFormatException e) {
                throw new ConfigException("deleteWhen=" + values.string("deleteWhen", "") + " is not hours like 04;05");
            }
        }
        return new StoreConfig(root, commitLog, values.intValue("mappedFileSizeCommitLog", 1 << 30),
                values.intValue("mappedFileSizeConsumeQueue", 300_000 * 20) / 20,
                values.intValue("maxMessageSize", 4 * 1024 * 1024), values.string("flushDiskType", "ASYNC_FLUSH"),
                values.string("storeBackend", "mmap"), values.intValue("fileReservedTime", 72), hours,
                values.intValue("diskMaxUsedSpaceRatio", 75), values.intValue("diskSpaceCleanForciblyRatio", 85),
                fraction(values.doubleValue("diskSpaceWarningLevelRatio", 0.90)),
                values.intValue("maxHashSlotNum", 5_000_000), values.intValue("maxIndexNum", 20_000_000),
                DelayLevels.parse(values.string(DelayLevels.KEY, DelayLevels.DEFAULT)), values);
    }

    /**
     * A ratio written either as a fraction (modmq's and RocketMQ 4's {@code 0.90}) or as a percent
     * (RocketMQ 5's {@code broker.conf} writes {@code diskSpaceWarningLevelRatio=90}): above 1 it is a percent.
     */
    public static double fraction(double ratio) {
        return ratio > 1 ? ratio / 100 : ratio;
    }
}
