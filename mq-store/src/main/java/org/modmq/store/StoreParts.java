package org.modmq.store;

import java.util.OptionalLong;
import java.util.function.DoubleSupplier;
import org.modmq.api.spi.PluginContext;
import org.modmq.api.spi.storage.StorageBackend;
import org.modmq.store.dispatch.DispatchAgent;
import org.modmq.store.epoch.EpochFile;
import org.modmq.store.epoch.EpochHistory;
import org.modmq.store.format.TopicQueue;
import org.modmq.store.index.IndexForceCadence;
import org.modmq.store.index.IndexStore;
import org.modmq.store.log.CommitLog;
import org.modmq.store.log.QueueOffsetTable;
import org.modmq.store.queue.ConsumeQueue;
import org.modmq.store.queue.ConsumeQueueTable;
import org.modmq.store.recovery.AbortFile;
import org.modmq.store.recovery.Checkpoint;
import org.modmq.store.recovery.CheckpointFile;
import org.modmq.store.recovery.CommitLogRecovery;
import org.modmq.store.recovery.RecoveryOutcome;
import org.modmq.store.recovery.TruncationMarker;
import org.modmq.store.retention.RetentionAgent;
import org.modmq.store.retention.RetentionPolicy;
import org.modmq.store.segment.SegmentFiles;

/**
 * The store's components, opened and recovered in order: CommitLog (end found by recovery, then cut
 * back to an unfinished truncation's target), epoch history (entries beyond the end dropped),
 * ConsumeQueues (cut back to the CommitLog end), index, dispatch (re-dispatching from what the walk
 * verified or from where the checkpoint says dispatch had got to, whichever is lower), then the abort
 * file is created. Not thread-safe itself; the parts are.
 */
record StoreParts(StoreConfig config, CommitLog log, ConsumeQueueTable queues, IndexStore index,
                  IndexForceCadence indexForces, DispatchAgent dispatch, RetentionAgent retention,
                  CheckpointFile checkpoint, AbortFile abort, EpochHistory epochs, TruncationMarker truncation,
                  RecoveryReport recovery) {

    /** ms between two forces of the index (the ConsumeQueues are forced every {@code flushIntervalConsumeQueue}). */
    static final String INDEX_INTERVAL_KEY = "flushIntervalIndex";
    static final long DEFAULT_INDEX_INTERVAL_MILLIS = 10_000;

    static StoreParts open(StoreConfig config, StorageBackend backend, PluginContext context, DoubleSupplier usage) {
        return open(config, backend, context, usage, new OpenTimer());
    }

    /** As above, timing each phase into {@code timer}. */
    static StoreParts open(StoreConfig config, StorageBackend backend, PluginContext context, DoubleSupplier usage,
                           OpenTimer timer) {
        CheckpointFile checkpointFile = new CheckpointFile(config.rootDir().resolve("checkpoint"));
        AbortFile abort = new AbortFile(config.rootDir().resolve("abort"));
        TruncationMarker truncation = new TruncationMarker(config.rootDir().resolve("truncating"));
        SegmentFiles files = new SegmentFiles(backend, config.commitLogDir(), config.commitLogSegmentSize(),
                config.commitLogSegmentSize());
        files.load();
        timer.mark("commitlog files");
        QueueOffsetTable offsets = new QueueOffsetTable();
        CommitLog log = new CommitLog(files, offsets, context.clock(), context.allocator(), config.maxMessageSize());
        ConsumeQueueTable queues = new ConsumeQueueTable(backend, config.rootDir().resolve("consumequeue"),
                config.consumeQueueEntries());
        IndexStore index = new IndexStore(backend, config.rootDir().resolve("index"), context.clock(),
                config.maxHashSlotNum(), config.maxIndexNum());
        try {
            boolean abnormal = abort.exists();
            Checkpoint saved = checkpointFile.read();
            RecoveryOutcome outcome = new CommitLogRecovery(log).recover(abnormal, saved);
            timer.mark(abnormal ? "commitlog recovery (after a crash)" : "commitlog recovery");
            long end = outcome.end();
            OptionalLong unfinished = truncation.pending();
            if (unfinished.isPresent()) {
                // A crash interrupted a replica's truncation: finish it before anything reads the tail.
                if (unfinished.getAsLong() < end) {
                    log.truncate(unfinished.getAsLong());
                    end = log.maxOffset();
                }
            }
            EpochHistory epochs = new EpochHistory(new EpochFile(config.rootDir().resolve(EpochFile.NAME)));
            if (unfinished.isPresent()) {
                epochs.truncateFrom(unfinished.getAsLong());
            }
            epochs.truncateAbove(end);
            timer.mark("truncation and epochs");
            queues.load();
            timer.mark("consumequeue open (" + queues.all().size() + " queues)");
            for (ConsumeQueue queue : queues.all()) {
                queue.truncateTo(end);
                offsets.set(new TopicQueue(queue.topic(), queue.queueId()), queue.maxOffset());
            }
            timer.mark("consumequeue cut");
            index.load();
            index.resumeBelow(end);
            timer.mark("index open");
            // After a crash, queue and index entries written after their last force may be gone (the direct
            // backend keeps unforced bytes in process memory): re-dispatch from the last logics force at the latest.
            // After a clean close the checkpoint names where dispatch had got to, which in controller mode is
            // the confirm offset, below the log's end: the records between are dispatched now.
            // The walk says whether that offset is still a record start: then every entry below it was forced
            // and nothing before it is dispatched again (before, re-dispatch re-read every walked record).
            long dispatchFrom = Math.min(outcome.redispatchFrom(), end);
            DispatchAgent dispatch = new DispatchAgent(log, queues, index, Math.max(log.minOffset(), dispatchFrom),
                    config.delayLevels());
            int redispatched = dispatch.doWork();
            timer.mark("re-dispatch (" + redispatched + " records from " + Math.max(log.minOffset(), dispatchFrom) + ")");
            log.observeAppends(dispatch::offer);
            RetentionAgent retention = new RetentionAgent(log, queues, index, context.clock(), new RetentionPolicy(
                    config.fileReservedHours() * 3_600_000L, config.deleteHours(),
                    config.diskMaxUsedSpaceRatio() / 100.0, config.diskSpaceCleanForciblyRatio() / 100.0,
                    config.diskSpaceWarningLevelRatio(), RetentionPolicy.BATCH_MAX), usage);
            retention.doWork();
            timer.mark("retention");
            if (unfinished.isPresent()) {
                queues.flushAll();
                index.flush();
                truncation.end();
            }
            abort.create();
            timer.mark("abort file");
            RecoveryReport report = new RecoveryReport(outcome.abnormal(), outcome.verifiedFrom(), end,
                    outcome.recordsVerified(), outcome.corruptOffset(), outcome.corruptReason());
            IndexForceCadence indexForces = new IndexForceCadence(context.clock(), config.values()
                    .longValue(INDEX_INTERVAL_KEY, DEFAULT_INDEX_INTERVAL_MILLIS));
            return new StoreParts(config, log, queues, index, indexForces, dispatch, retention, checkpointFile, abort,
                    epochs, truncation, report);
        } catch (RuntimeException e) {
            index.close();
            queues.close();
            log.close();
            throw e;
        }
    }

    /**
     * Forces the ConsumeQueues up to what is dispatched now, and the index when its interval
     * ({@value #INDEX_INTERVAL_KEY}) has passed, and records in the checkpoint the offset both cover, so a
     * crash re-dispatches at most what came after it. Runs beside the writer.
     */
    void flushLogics(long lastStoreTimestamp) {
        long dispatched = dispatch.dispatchedOffset();
        queues.flushAll();
        long covered = indexForces.flushIfDue(index, dispatched);
        checkpoint.write(new Checkpoint(lastStoreTimestamp, lastStoreTimestamp, lastStoreTimestamp,
                log.durableOffset(), log.maxOffset(), covered));
    }

    /**
     * Cuts the whole store back to {@code offset} (a replica whose tail diverged from its master's, or a
     * new master dropping a partial record): CommitLog, epoch entries starting at or above it,
     * ConsumeQueues, queue offsets, dispatch and index positions. The marker makes it crash-safe: a crash
     * before {@link TruncationMarker#end()} finishes the cut at the next open. The caller keeps writers
     * out (the log is not in a mode that takes the cut bytes back).
     */
    void truncate(long offset) {
        truncation.begin(offset);
        log.truncate(offset);
        long end = log.maxOffset();
        epochs.truncateFrom(Math.max(offset, end));
        if (end == 0) {
            epochs.truncateFrom(0);
        }
        for (ConsumeQueue queue : queues.all()) {
            queue.truncateTo(end);
            log.queueOffsets().set(new TopicQueue(queue.topic(), queue.queueId()), queue.maxOffset());
        }
        // Index entries beyond the cut stay; a query checks the record it names (see KeyQuery).
        index.resumeBelow(end);
        indexForces.cappedAt(end);
        dispatch.resetTo(Math.min(dispatch.dispatchedOffset(), end));
        // The saved offsets may lie beyond the cut, where new records will go: a crash before the next logics
        // flush must not re-dispatch from one of them (recovery would skip the new records' unforced entries).
        checkpoint.write(checkpoint.read().cappedAt(end));
        truncation.end();
    }

    /** After the flush policy is closed: force queues and index, write the checkpoint, remove abort. */
    void closeCleanly(long lastStoreTimestamp) {
        long end = log.flush();
        // A replica's log may end inside a record cut by a replication frame; it reopens at the last whole
        // record, which is what it then reports to its master, so the master resends the cut record.
        long confirmed = log.confirmedOffset();
        // Read before the queues are forced and closed; controller mode dispatches only up to the confirm offset.
        long dispatched = Math.min(dispatch.dispatchedOffset(), confirmed);
        index.flush();
        index.close();
        queues.close();
        log.close();
        checkpoint.write(new Checkpoint(lastStoreTimestamp, lastStoreTimestamp, lastStoreTimestamp, end, confirmed,
                dispatched));
        abort.delete();
    }
}
