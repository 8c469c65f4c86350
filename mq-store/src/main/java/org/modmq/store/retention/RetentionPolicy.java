package org.modmq.store.retention;

import java.util.Set;

/**
 * When CommitLog segments may be deleted, as RocketMQ's {@code CleanCommitLogService} decides. Usages are
 * fractions (0..1) of the store's file system in use, compared strictly ({@code usage > ratio}).
 *
 * @param reservedMillis age (by last modification) after which a segment expires ({@code fileReservedTime} hours)
 * @param deleteHours hours of the day at which expired segments are deleted ({@code deleteWhen}, e.g. "04;05")
 * @param maxUsedRatio above it, expired segments are deleted at any hour ({@code diskMaxUsedSpaceRatio}/100)
 * @param cleanForciblyRatio above it, segments are deleted oldest first whether expired or not; also where a
 *     full disk takes writes again ({@code diskSpaceCleanForciblyRatio}/100)
 * @param warningRatio above it, writes are refused ({@code diskSpaceWarningLevelRatio})
 * @param batchMax segments deleted at most in one pass (RocketMQ's {@code deleteFileBatchMax} default, 10)
 */
public record RetentionPolicy(long reservedMillis, Set<Integer> deleteHours, double maxUsedRatio,
                              double cleanForciblyRatio, double warningRatio, int batchMax) {

    /** RocketMQ's {@code deleteFileBatchMax} default. */
    public static final int BATCH_MAX = 10;

    public RetentionPolicy {
        deleteHours = Set.copyOf(deleteHours);
        if (batchMax < 1) {
            throw new IllegalArgumentException("batchMax " + batchMax + " < 1");
        }
    }

    /** Why a pass at this usage and hour deletes, or null when it deletes nothing. */
    Reason reason(double usage, int hour) {
        if (usage > cleanForciblyRatio || usage > warningRatio) {
            return Reason.FORCED;
        }
        if (usage > maxUsedRatio) {
            return Reason.SPACE;
        }
        return deleteHours.contains(hour) ? Reason.TIME : null;
    }

    /** Why a retention pass deletes segments. */
    enum Reason {
        /** {@code deleteWhen}: expired segments. */
        TIME,
        /** Above {@code diskMaxUsedSpaceRatio}: expired segments, at any hour. */
        SPACE,
        /** Above {@code diskSpaceCleanForciblyRatio}: the oldest segments, expired or not. */
        FORCED
    }
}
