package org.modmq.store.retention;

import java.util.Set;

/**
 * When CommitLog segments may be deleted.
 *
 * @param reservedMillis age (by last modification) after which a segment expires ({@code fileReservedTime} hours)
 * @param deleteHours hours of the day at which expired segments are deleted ({@code deleteWhen}, e.g. "04;05")
 * @param maxUsedRatio disk usage (0..1) above which segments are deleted at once ({@code diskMaxUsedSpaceRatio}/100)
 * @param warningRatio disk usage (0..1) above which writes are refused ({@code diskSpaceWarningLevelRatio})
 */
public record RetentionPolicy(long reservedMillis, Set<Integer> deleteHours, double maxUsedRatio,
                              double warningRatio) {

    public RetentionPolicy {
        deleteHours = Set.copyOf(deleteHours);
    }
}
