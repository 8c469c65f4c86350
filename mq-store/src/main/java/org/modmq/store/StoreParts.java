package org.modmq.store;

import java.util.function.DoubleSupplier;
import org.modmq.api.spi.PluginContext;
import org.modmq.api.spi.storage.StorageBackend;
import org.modmq.store.dispatch.DispatchAgent;
import org.modmq.store.format.TopicQueue;
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
import org.modmq.store.retention.RetentionAgent;
import org.modmq.store.retention.RetentionPolicy;
import org.modmq.store.segment.SegmentFiles;

/**
 * The store's components, opened and recovered in order: CommitLog (end found by recovery),
 * ConsumeQueues (cut back to the CommitLog end), index, dispatch (re-dispatching what the walk
 * verified), then the abort file is created. Not thread-safe itself; the parts are.
 */
record StoreParts(StoreConfig config, CommitLog log, ConsumeQueueTable queues, IndexStore index,
                  DispatchAgent dispatch, RetentionAgent retention, CheckpointFile checkpoint, AbortFile abort,
                  RecoveryReport recovery) {

    static StoreParts open(StoreConfig config, StorageBackend backend, PluginContext context, DoubleSupplier usage) {
        CheckpointFile checkpointFile = new CheckpointFile(config.rootDir().resolve("checkpoint"));
        AbortFile abort = new AbortFile(config.rootDir().resolve("abort"));
        SegmentFiles files = new SegmentFiles(backend, config.commitLogDir(), config.commitLogSegmentSize(),
                config.commitLogSegmentSize());
        files.load();
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
            queues.load();
            for (ConsumeQueue queue : queues.all()) {
                queue.truncateTo(outcome.end());
                offsets.set(new TopicQueue(queue.topic(), queue.queueId()), queue.maxOffset());
            }
            index.load();
            index.resumeBelow(outcome.end());
            // After a crash, queue and index entries written after their last force may be gone (the direct
            // backend keeps unforced bytes in process memory): re-dispatch from the last logics force at the latest.
            long dispatchFrom = abnormal ? Math.min(outcome.verifiedFrom(), saved.logicsFlushedOffset())
                    : outcome.verifiedFrom();
            DispatchAgent dispatch = new DispatchAgent(log, queues, index, Math.max(log.minOffset(), dispatchFrom));
            dispatch.doWork();
            RetentionAgent retention = new RetentionAgent(log, queues, index, context.clock(), new RetentionPolicy(
                    config.fileReservedHours() * 3_600_000L, config.deleteHours(),
                    config.diskMaxUsedSpaceRatio() / 100.0, config.diskSpaceWarningLevelRatio()), usage);
            retention.doWork();
            abort.create();
            RecoveryReport report = new RecoveryReport(outcome.abnormal(), outcome.verifiedFrom(), outcome.end(),
                    outcome.recordsVerified(), outcome.corruptOffset(), outcome.corruptReason());
            return new StoreParts(config, log, queues, index, dispatch, retention, checkpointFile, abort, report);
        } catch (RuntimeException e) {
            index.close();
            queues.close();
            log.close();
            throw e;
        }
    }

    /**
     * Forces ConsumeQueues and index up to what is dispatched now and records that offset in the
     * checkpoint, so a crash re-dispatches at most what came after it. Runs beside the writer.
     */
    void flushLogics(long lastStoreTimestamp) {
        long dispatched = dispatch.dispatchedOffset();
        queues.flushAll();
        index.flush();
        checkpoint.write(new Checkpoint(lastStoreTimestamp, lastStoreTimestamp, lastStoreTimestamp,
                log.durableOffset(), log.maxOffset(), dispatched));
    }

    /** After the flush policy is closed: force queues and index, write the checkpoint, remove abort. */
    void closeCleanly(long lastStoreTimestamp) {
        long end = log.flush();
        // A replica's log may end inside a record cut by a replication frame; it reopens at the last whole
        // record, which is what it then reports to its master, so the master resends the cut record.
        long confirmed = log.confirmedOffset();
        index.flush();
        index.close();
        queues.close();
        log.close();
        checkpoint.write(new Checkpoint(lastStoreTimestamp, lastStoreTimestamp, lastStoreTimestamp, end, confirmed,
                confirmed));
        abort.delete();
    }
}
