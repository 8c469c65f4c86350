package org.modmq.store.retention;

import java.io.IOException;
import java.nio.file.Files;
import java.time.Clock;
import java.util.List;
import java.util.Objects;
import java.util.function.DoubleSupplier;
import org.modmq.store.index.IndexStore;
import org.modmq.store.log.CommitLog;
import org.modmq.store.queue.ConsumeQueue;
import org.modmq.store.queue.ConsumeQueueTable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Deletes whole CommitLog segments (never the active one), oldest first, as RocketMQ's
 * {@code CleanCommitLogService} does ({@link RetentionPolicy}): expired ones at the {@code deleteWhen} hours,
 * or at any hour above {@code diskMaxUsedSpaceRatio}; above {@code diskSpaceCleanForciblyRatio}, the oldest
 * whether expired or not. At most {@link RetentionPolicy#batchMax()} per pass, so a full disk frees space
 * one pass at a time and each pass probes the usage again. Then drops ConsumeQueue segments and index files
 * wholly below the new min offset. Also decides whether the disk is too full to write: above the warning
 * ratio writes are refused, and taken again once the usage is at or below the forcible ratio (RocketMQ's
 * hysteresis, so the store does not flap at the threshold). {@link #doWork()} is called by one thread at a
 * time (the store's scheduler, or a test).
 */
public final class RetentionAgent {

    private static final Logger LOG = LoggerFactory.getLogger(RetentionAgent.class);

    private final CommitLog log;
    private final ConsumeQueueTable queues;
    private final IndexStore index;
    private final Clock clock;
    private final RetentionPolicy policy;
    private final DoubleSupplier diskUsage;
    private volatile boolean diskFull;

    public RetentionAgent(CommitLog log, ConsumeQueueTable queues, IndexStore index, Clock clock,
                          RetentionPolicy policy, DoubleSupplier diskUsage) {
        this.log = Objects.requireNonNull(log, "log");
        this.queues = Objects.requireNonNull(queues, "queues");
        this.index = Objects.requireNonNull(index, "index");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.policy = Objects.requireNonNull(policy, "policy");
        this.diskUsage = Objects.requireNonNull(diskUsage, "diskUsage");
    }

    /** Whether the disk was found above the warning ratio and not yet back at or below the forcible ratio. */
    public boolean diskFull() {
        return diskFull;
    }

    /** One pass; returns the number of CommitLog segments deleted. */
    public int doWork() {
        double usage = diskUsage.getAsDouble();
        boolean full = usage > policy.warningRatio() || (diskFull && usage > policy.cleanForciblyRatio());
        if (full != diskFull) {
            LOG.warn("disk usage {}%: writes are {}", Math.round(usage * 100), full ? "refused" : "accepted again");
        }
        diskFull = full;
        RetentionPolicy.Reason reason = policy.reason(usage, clock.instant().atZone(clock.getZone()).getHour());
        if (reason == null) {
            return 0;
        }
        long now = clock.millis();
        int deleted = 0;
        List<Long> starts = log.files().starts();
        for (int i = 0; i < starts.size() - 1 && deleted < policy.batchMax(); i++) {
            long start = starts.get(i);
            boolean expired = now - lastModified(start) >= policy.reservedMillis();
            if (!expired && reason != RetentionPolicy.Reason.FORCED) {
                break;
            }
            if (!log.deleteSegment(start)) {
                break;
            }
            LOG.info("deleted CommitLog segment {} ({})", start, expired ? "expired" : "disk usage "
                    + Math.round(usage * 100) + "% above diskSpaceCleanForciblyRatio");
            deleted++;
        }
        if (deleted > 0) {
            long min = log.minOffset();
            for (ConsumeQueue queue : queues.all()) {
                queue.dropBelow(min);
            }
            index.dropBelow(min);
        } else if (reason != RetentionPolicy.Reason.TIME) {
            LOG.warn("disk usage {}% is above the retention thresholds but no segment could be deleted",
                    Math.round(usage * 100));
        }
        return deleted;
    }

    private long lastModified(long start) {
        try {
            return Files.getLastModifiedTime(log.segmentPath(start)).toMillis();
        } catch (IOException e) {
            LOG.warn("cannot read the age of segment {}: {}", start, e.getMessage());
            return Long.MAX_VALUE;
        }
    }
}
