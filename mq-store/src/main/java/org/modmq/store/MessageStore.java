package org.modmq.store;

import io.netty.buffer.ByteBuf;
import java.io.IOException;
import java.nio.file.FileStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.DoubleSupplier;
import java.util.function.LongPredicate;
import org.modmq.api.config.ConfigValues;
import org.modmq.api.message.BrokerMessage;
import org.modmq.api.message.PutStatus;
import org.modmq.api.message.PutStatusException;
import org.modmq.api.message.StoredMessage;
import org.modmq.api.spi.PluginContext;
import org.modmq.api.spi.ProviderRegistry;
import org.modmq.api.spi.flush.FlushContext;
import org.modmq.api.spi.flush.FlushPolicy;
import org.modmq.api.spi.flush.FlushPolicyProvider;
import org.modmq.api.spi.replication.ReplicatedLog;
import org.modmq.api.spi.storage.StorageBackend;
import org.modmq.api.spi.storage.StorageBackendProvider;
import org.modmq.api.spi.storage.StorageException;
import org.modmq.store.format.MessageDecoder;
import org.modmq.store.log.AppendResult;
import org.modmq.store.queue.ConsumeQueue;
import org.modmq.store.queue.ConsumeQueueEntry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The store facade the broker uses: put (append → future), pull (ConsumeQueue → stored bytes), lookups,
 * query by key, replication access, and lifecycle (recovery at open, checkpoint and abort file,
 * retention every 10 s on the context's scheduler).
 *
 * <p>Threads: every method is thread-safe. Puts are serialized by a short append lock; dispatch to
 * ConsumeQueues and the index runs on the putting thread before the returned future can complete,
 * so a message is readable through {@link #getMessages} by the time its put is answered.
 *
 * <p>Buffers: every {@link ByteBuf} returned (in results or by {@link #readMessage}) is owned by the
 * caller and must be released once.
 */
public final class MessageStore implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(MessageStore.class);

    private final StoreParts parts;
    private final FlushPolicy flush;
    private final MessageReader reader;
    private final ReplicatedLog replicatedLog;
    private final ScheduledFuture<?> maintenance;
    private final ScheduledFuture<?> logicsFlush;
    private final StorageBackend ownedBackend;
    private volatile long lastStoreTimestamp;
    private volatile boolean closed;

    private MessageStore(StoreParts parts, FlushPolicyProvider flushProvider, PluginContext context,
                         StorageBackend ownedBackend) {
        this.parts = parts;
        this.ownedBackend = ownedBackend;
        this.flush = flushProvider.create(parts.config().values(), new FlushContext(context, parts.log()));
        this.reader = new MessageReader(parts.log(), parts.queues());
        this.replicatedLog = new StoreReplicatedLog(parts.log(), parts.queues(), parts.dispatch());
        this.maintenance = context.scheduler().scheduleWithFixedDelay(this::runMaintenance, 10, 10, TimeUnit.SECONDS);
        long logicsPeriod = parts.config().values().longValue("flushIntervalConsumeQueue", 1000);
        this.logicsFlush = context.scheduler().scheduleWithFixedDelay(this::flushLogics, logicsPeriod, logicsPeriod,
                TimeUnit.MILLISECONDS);
    }

    /**
     * Opens (and recovers) a store on {@code backend}, which the caller owns and closes after the store.
     * The flush policy is created from {@code flushProvider} and owned by the store.
     *
     * @param diskUsage fraction (0..1) of the store's file system in use; probed every 10 s
     */
    public static MessageStore open(StoreConfig config, StorageBackend backend, FlushPolicyProvider flushProvider,
                                    PluginContext context, DoubleSupplier diskUsage) {
        Objects.requireNonNull(flushProvider, "flushProvider");
        return new MessageStore(StoreParts.open(config, backend, context, diskUsage), flushProvider, context, null);
    }

    /** {@link #open(StoreConfig, StorageBackend, FlushPolicyProvider, PluginContext, DoubleSupplier)} probing the real disk. */
    public static MessageStore open(StoreConfig config, StorageBackend backend, FlushPolicyProvider flushProvider,
                                    PluginContext context) {
        return open(config, backend, flushProvider, context, diskUsageOf(config.rootDir()));
    }

    /**
     * Opens a store choosing the backend ({@code storeBackend}) and flush policy ({@code flushDiskType})
     * by name through {@link ProviderRegistry}; the store owns and closes the backend.
     *
     * @throws org.modmq.api.spi.UnknownProviderException when a name has no provider
     */
    public static MessageStore open(ConfigValues values, PluginContext context) {
        StoreConfig config = StoreConfig.from(values, context.storeRoot());
        FlushPolicyProvider flushProvider = ProviderRegistry.load(FlushPolicyProvider.class).get(config.flushDiskType());
        StorageBackend backend = ProviderRegistry.load(StorageBackendProvider.class).get(config.storeBackend())
                .create(values, context);
        try {
            StoreParts parts = StoreParts.open(config, backend, context, diskUsageOf(config.rootDir()));
            return new MessageStore(parts, flushProvider, context, backend);
        } catch (RuntimeException e) {
            backend.close();
            throw e;
        }
    }

    /** The real disk usage of the file system holding {@code root}. */
    public static DoubleSupplier diskUsageOf(Path root) {
        return () -> {
            try {
                Files.createDirectories(root);
                FileStore store = Files.getFileStore(root);
                return store.getTotalSpace() == 0 ? 0 : 1.0 - (double) store.getUsableSpace() / store.getTotalSpace();
            } catch (IOException e) {
                LOG.warn("cannot probe disk usage of {}: {}", root, e.getMessage());
                return 0;
            }
        };
    }

    /** Stores one message; the future completes (never exceptionally) when the flush policy says so. */
    public CompletableFuture<PutResult> putMessage(BrokerMessage message) {
        Objects.requireNonNull(message, "message");
        return putMessages(List.of(message));
    }

    /**
     * Stores a batch of one topic-queue with consecutive queue offsets, all or nothing. The future
     * completes with PUT_OK, FLUSH_DISK_TIMEOUT (stored, not forced in time), or a status saying why
     * nothing was stored (MESSAGE_ILLEGAL, PROPERTIES_SIZE_EXCEEDED, DISK_FULL, SERVICE_NOT_AVAILABLE,
     * UNKNOWN_ERROR). The same as {@code append(messages).durable()}.
     */
    public CompletableFuture<PutResult> putMessages(List<BrokerMessage> messages) {
        return append(messages).durable();
    }

    /**
     * Stores a batch like {@link #putMessages} and returns at once with the append's outcome (offsets,
     * message ids) and, separately, the future of its durability under the flush policy. A caller that
     * answers before durability (a producer's {@code WAIT=false}) uses {@link AppendedPut#appended()};
     * one that must not acknowledge before the force waits for {@link AppendedPut#durable()}.
     * Thread-safe; the records are dispatched (readable) when this returns.
     */
    public AppendedPut append(List<BrokerMessage> messages) {
        if (closed) {
            return failed(PutStatus.SERVICE_NOT_AVAILABLE, "store closed");
        }
        if (parts.retention().diskFull()) {
            return failed(PutStatus.DISK_FULL,
                    "disk usage is above diskSpaceWarningLevelRatio " + parts.config().diskSpaceWarningLevelRatio());
        }
        AppendResult appended = parts.log().appendBatch(messages);
        if (!appended.ok()) {
            return failed(appended.status(), appended.detail());
        }
        lastStoreTimestamp = appended.storeTimestamp();
        parts.dispatch().doWork();
        List<String> ids = new ArrayList<>(appended.count());
        for (int i = 0; i < appended.count(); i++) {
            ids.add(MessageIds.offsetMsgId(messages.get(i).storeHost(), appended.recordOffsets().get(i)));
        }
        PutResult stored = new PutResult(PutStatus.PUT_OK, appended.commitLogOffset(), appended.size(),
                appended.queueOffset(), appended.count(), appended.storeTimestamp(), ids, "");
        CompletableFuture<Long> flushed = flush.appended(appended.endOffset());
        if (flushed.isDone() && !flushed.isCompletedExceptionally()) {
            return new AppendedPut(stored, CompletableFuture.completedFuture(stored));
        }
        return new AppendedPut(stored, flushed.handle((durable, failure) -> {
            if (failure == null) {
                return stored;
            }
            Throwable cause = failure instanceof CompletionException && failure.getCause() != null
                    ? failure.getCause() : failure;
            PutStatus status = cause instanceof PutStatusException put ? put.status() : PutStatus.UNKNOWN_ERROR;
            return new PutResult(status, stored.commitLogOffset(), stored.size(), stored.queueOffset(),
                    stored.count(), stored.storeTimestamp(), stored.msgIds(), String.valueOf(cause.getMessage()));
        }));
    }

    private static AppendedPut failed(PutStatus status, String detail) {
        PutResult result = PutResult.failed(status, detail);
        return new AppendedPut(result, CompletableFuture.completedFuture(result));
    }

    /**
     * Reads up to {@code maxCount} messages of a queue from {@code queueOffset}, keeping those whose tag
     * code passes {@code tagFilter}; stops before exceeding {@code maxBytes} (the first message is always
     * returned). The caller closes the result (or releases each buffer).
     */
    public GetMessageResult getMessages(String topic, int queueId, long queueOffset, int maxCount,
                                        LongPredicate tagFilter, int maxBytes) {
        return reader.read(topic, queueId, queueOffset, maxCount, tagFilter, maxBytes);
    }

    /** The number of entries in the queue (0 when it does not exist). */
    public long getMaxOffsetInQueue(String topic, int queueId) {
        ConsumeQueue queue = parts.queues().get(topic, queueId, false);
        return queue == null ? 0 : queue.maxOffset();
    }

    /** The first entry still held (0 when the queue does not exist). */
    public long getMinOffsetInQueue(String topic, int queueId) {
        ConsumeQueue queue = parts.queues().get(topic, queueId, false);
        return queue == null ? 0 : queue.minOffset();
    }

    /** The first queue offset stored at or after {@code timestamp}; the max offset when none is. */
    public long getOffsetByTime(String topic, int queueId, long timestamp) {
        ConsumeQueue queue = parts.queues().get(topic, queueId, false);
        return queue == null ? 0 : queue.offsetByTime(timestamp,
                entry -> parts.log().readStoreTimestamp(entry.commitLogOffset(), entry.size()));
    }

    /** Store time of the queue's first held message, -1 when none. */
    public long getEarliestMessageTime(String topic, int queueId) {
        return getMessageStoreTimestamp(topic, queueId, getMinOffsetInQueue(topic, queueId));
    }

    /** Store time of the message at {@code queueOffset}, -1 when not held. */
    public long getMessageStoreTimestamp(String topic, int queueId, long queueOffset) {
        ConsumeQueue queue = parts.queues().get(topic, queueId, false);
        ConsumeQueueEntry entry = queue == null ? null : queue.entry(queueOffset);
        return entry == null ? -1 : parts.log().readStoreTimestamp(entry.commitLogOffset(), entry.size());
    }

    /** The stored record at {@code commitLogOffset}, or null; the caller releases it. */
    public ByteBuf readMessage(long commitLogOffset) {
        if (commitLogOffset < parts.log().minOffset()) {
            return null;
        }
        return parts.log().readRecord(commitLogOffset);
    }

    /** The message at {@code commitLogOffset}, decoded (body CRC not checked), if held. */
    public Optional<StoredMessage> lookMessageByOffset(long commitLogOffset) {
        ByteBuf record = readMessage(commitLogOffset);
        if (record == null) {
            return Optional.empty();
        }
        try {
            return Optional.of(MessageDecoder.decode(record, record.readerIndex(), false));
        } catch (IllegalStateException e) {
            LOG.warn("no message at CommitLog offset {}: {}", commitLogOffset, e.getMessage());
            return Optional.empty();
        } finally {
            record.release();
        }
    }

    /**
     * Records indexed under {@code topic#key} (a KEYS entry or the UNIQ_KEY), newest first, stored in
     * {@code [begin, end]} ms, at most {@code maxNum}. The caller closes the result.
     */
    public QueryMessageResult queryMessage(String topic, String key, int maxNum, long begin, long end) {
        List<ByteBuf> records = new ArrayList<>();
        List<Long> offsets = new ArrayList<>();
        for (long offset : parts.index().query(topic, key, maxNum, begin, end)) {
            ByteBuf record = readMessage(offset);
            if (record != null) {
                records.add(record);
                offsets.add(offset);
            }
        }
        return new QueryMessageResult(records, offsets, parts.index().lastUpdateTimestamp(), parts.log().maxOffset());
    }

    public long getCommitLogMinOffset() {
        return parts.log().minOffset();
    }

    public long getCommitLogMaxOffset() {
        return parts.log().maxOffset();
    }

    /** The CommitLog offset below which everything is forced to disk. */
    public long getFlushedOffset() {
        return parts.log().durableOffset();
    }

    /** Topics that have a ConsumeQueue. */
    public Set<String> topics() {
        return parts.queues().topics();
    }

    /** Queue ids of {@code topic} that have a ConsumeQueue. */
    public Set<Integer> queueIds(String topic) {
        return parts.queues().queueIds(topic);
    }

    /** Registers a listener told after each dispatch which queues grew. */
    public void addArrivalListener(MessageArrivalListener listener) {
        Objects.requireNonNull(listener, "listener");
        parts.dispatch().addListener(listener::onArrival);
    }

    /** The CommitLog for a replication strategy; replicated appends are dispatched like local ones. */
    public ReplicatedLog replicatedLog() {
        return replicatedLog;
    }

    /** The flush policy's name ({@code SYNC_FLUSH}, {@code ASYNC_FLUSH}). */
    public String flushPolicyName() {
        return flush.name();
    }

    /** What recovery found at open. */
    public RecoveryReport recoveryReport() {
        return parts.recovery();
    }

    /** Whether writes are refused because the disk is above {@code diskSpaceWarningLevelRatio}. */
    public boolean diskFull() {
        return parts.retention().diskFull();
    }

    /** One retention pass (the scheduler runs it every 10 s). */
    void runMaintenance() {
        try {
            parts.retention().doWork();
        } catch (StorageException | IllegalStateException e) {
            LOG.error("maintenance failed", e);
        }
    }

    /**
     * Forces ConsumeQueues and index and writes the checkpoint (every {@code flushIntervalConsumeQueue}
     * ms, default 1000, as RocketMQ flushes its queues).
     */
    synchronized void flushLogics() {
        if (closed) {
            return;
        }
        try {
            parts.flushLogics(lastStoreTimestamp);
        } catch (StorageException | IllegalStateException e) {
            LOG.error("ConsumeQueue and index flush failed", e);
        }
    }

    /** Forces everything, writes the checkpoint, removes the abort file and closes. Idempotent. */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        maintenance.cancel(false);
        logicsFlush.cancel(false);
        flush.close();
        parts.closeCleanly(lastStoreTimestamp);
        if (ownedBackend != null) {
            ownedBackend.close();
        }
    }
}
