package org.modmq.broker.config;

import java.nio.file.Path;
import java.util.Objects;
import org.modmq.api.config.ConfigException;
import org.modmq.api.message.DelayLevels;

/**
 * The store settings the broker reads from {@code broker.conf} and hands to the message store. The
 * storage and flush plugins declare their own keys ({@code PluginKeys}). Immutable; sizes in bytes, times
 * in ms unless named otherwise.
 *
 * @param rootDir {@code storePathRootDir}; metadata lives in {@code rootDir/config}
 * @param commitLogDir {@code storePathCommitLog}, default {@code rootDir/commitlog}
 * @param commitLogFileSize {@code mappedFileSizeCommitLog}
 * @param consumeQueueFileSize {@code mappedFileSizeConsumeQueue} (a multiple of 20)
 * @param storeBackend modmq's {@code storeBackend}: the StorageBackend provider name
 * @param flushDiskType {@code flushDiskType}: the FlushPolicy provider name, RocketMQ's {@code SYNC_FLUSH} or
 *     {@code ASYNC_FLUSH} or any installed policy's (spelled as the provider spells it when the case differs)
 * @param syncFlushTimeoutMillis {@code syncFlushTimeout}: the SYNC_FLUSH policy's timeout, also the bound of a
 *     lease-gated answer in controller mode
 * @param fileReservedHours {@code fileReservedTime}
 * @param deleteWhen {@code deleteWhen}: hours of the day, {@code HH;HH}
 * @param diskMaxUsedSpaceRatio {@code diskMaxUsedSpaceRatio}, percent
 * @param maxMessageSize {@code maxMessageSize}
 * @param delayLevels {@code messageDelayLevel}: the delay of each level, RocketMQ's 18 by default
 */
public record StoreKeysConfig(Path rootDir, Path commitLogDir, long commitLogFileSize, long consumeQueueFileSize,
                              String storeBackend, String flushDiskType, long syncFlushTimeoutMillis,
                              int fileReservedHours,
                              String deleteWhen, int diskMaxUsedSpaceRatio, int maxMessageSize,
                              DelayLevels delayLevels) {

    public StoreKeysConfig {
        Objects.requireNonNull(rootDir, "rootDir");
        Objects.requireNonNull(commitLogDir, "commitLogDir");
        Objects.requireNonNull(storeBackend, "storeBackend");
        Objects.requireNonNull(flushDiskType, "flushDiskType");
        Objects.requireNonNull(deleteWhen, "deleteWhen");
        Objects.requireNonNull(delayLevels, "delayLevels");
    }

    /** A copy choosing the flush policy {@code name} (the provider's spelling of what the file says). */
    StoreKeysConfig withFlushDiskType(String name) {
        return name.equals(flushDiskType) ? this : new StoreKeysConfig(rootDir, commitLogDir, commitLogFileSize,
                consumeQueueFileSize, storeBackend, name, syncFlushTimeoutMillis, fileReservedHours, deleteWhen,
                diskMaxUsedSpaceRatio, maxMessageSize, delayLevels);
    }

    /** {@code rootDir/config}: where the metadata JSON files live. */
    public Path configDir() {
        return rootDir.resolve("config");
    }

    static StoreKeysConfig read(ConfigReader reader) {
        Path root = Path.of(reader.string("storePathRootDir",
                Path.of(System.getProperty("user.home"), "store").toString()));
        Path commitLog = Path.of(reader.string("storePathCommitLog", root.resolve("commitlog").toString()));
        long commitLogSize = reader.longIn("mappedFileSizeCommitLog", 1L << 30, 4096, Integer.MAX_VALUE);
        long cqSize = reader.longIn("mappedFileSizeConsumeQueue", 300_000L * 20, 20, Integer.MAX_VALUE);
        if (cqSize % 20 != 0) {
            throw reader.bad("mappedFileSizeConsumeQueue", Long.toString(cqSize), "a multiple of 20");
        }
        String backend = reader.string("storeBackend", "mmap");
        String flush = reader.string("flushDiskType", "ASYNC_FLUSH");
        long syncTimeout = reader.longIn("syncFlushTimeout", 5_000, 1, 600_000);
        int reserved = reader.intIn("fileReservedTime", 72, 1, 24 * 3650);
        String deleteWhen = reader.string("deleteWhen", "04");
        if (!deleteWhen.matches("([01]?\\d|2[0-3])(;([01]?\\d|2[0-3]))*")) {
            throw reader.bad("deleteWhen", deleteWhen, "hours 0-23 separated by ';', e.g. 04 or 04;16");
        }
        int ratio = reader.intIn("diskMaxUsedSpaceRatio", 75, 10, 95);
        int maxSize = reader.intIn("maxMessageSize", 4 * 1024 * 1024, 1, 64 * 1024 * 1024);
        DelayLevels delayLevels = delayLevels(reader);
        readPassThroughKeys(reader);
        return new StoreKeysConfig(root, commitLog, commitLogSize, cqSize, backend, flush, syncTimeout,
                reserved, deleteWhen, ratio, maxSize, delayLevels);
    }

    private static DelayLevels delayLevels(ConfigReader reader) {
        String value = reader.string(DelayLevels.KEY, DelayLevels.DEFAULT);
        try {
            DelayLevels levels = DelayLevels.parse(value);
            reader.remember(DelayLevels.KEY, levels.toString());
            return levels;
        } catch (ConfigException e) {
            throw reader.bad(DelayLevels.KEY, value, "durations separated by spaces, each digits and one of the "
                    + "units s, m, h, d (e.g. \"1s 5s 10s\")");
        }
    }

    /**
     * Keys the store reads itself from the raw values: checked here so a bad value fails at start-up with
     * the file named, and listed as known keys.
     */
    private static void readPassThroughKeys(ConfigReader reader) {
        reader.longIn("flushIntervalConsumeQueue", 1_000, 1, 600_000);
        reader.longIn("flushIntervalIndex", 10_000, 0, 3_600_000);
        // RocketMQ's format: a percent; it clamps the value to [30, 85], modmq refuses what it would clamp.
        reader.intIn("diskSpaceCleanForciblyRatio", 85, 30, 85);
        // A fraction (0.90), or a percent (90) as RocketMQ 5's broker.conf writes it.
        reader.ratioIn("diskSpaceWarningLevelRatio", 0.90, 0.10, 0.99);
        reader.intIn("maxHashSlotNum", 5_000_000, 1, Integer.MAX_VALUE);
        reader.intIn("maxIndexNum", 20_000_000, 1, Integer.MAX_VALUE);
        reader.longIn("storeFaultProbeInterval", 500, 10, 60_000);
    }
}
