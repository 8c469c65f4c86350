package org.modmq.store;

import io.netty.buffer.ByteBuf;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.DoubleSupplier;
import java.util.function.LongConsumer;
import java.util.function.LongPredicate;
import org.modmq.api.config.BrokerRole;
import org.modmq.api.config.ConfigValues;
import org.modmq.api.config.PluginConfig;
import org.modmq.api.message.BrokerMessage;
import org.modmq.api.message.DelayLevels;
import org.modmq.api.message.PutStatus;
import org.modmq.api.message.PutStatusException;
import org.modmq.api.message.StoredMessage;
import org.modmq.api.spi.MetricsSink;
import org.modmq.api.spi.PluginContext;
import org.modmq.api.spi.ProviderRegistry;
import org.modmq.api.spi.flush.FlushContext;
import org.modmq.api.spi.flush.FlushPolicy;
import org.modmq.api.spi.flush.FlushPolicyProvider;
import org.modmq.api.spi.flush.FlushTarget;
import org.modmq.api.spi.replication.EpochEntry;
import org.modmq.api.spi.replication.ReplicaRole;
import org.modmq.api.spi.replication.ReplicaState;
import org.modmq.api.spi.replication.ReplicatedLog;
import org.modmq.api.spi.replication.ReplicationContext;
import org.modmq.api.spi.replication.ReplicationStrategy;
import org.modmq.api.spi.replication.ReplicationStrategyProvider;
import org.modmq.api.spi.replication.RoleState;
import org.modmq.api.spi.storage.StorageBackend;
import org.modmq.api.spi.storage.StorageBackendProvider;
import org.modmq.api.spi.storage.StorageException;
import org.modmq.store.format.MessageDecoder;
import org.modmq.store.log.AppendResult;
import org.modmq.store.queue.ConsumeQueue;
import org.modmq.store.queue.ConsumeQueueEntry;
import org.modmq.store.replication.LocalOnlyReplication;
import org.modmq.store.replication.ReplicationPolicy;
import org.modmq.store.replication.ReplicationTracker;
import org.modmq.store.retention.DiskUsage;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The store facade the broker uses. It owns the whole write pipeline: append (encode, CommitLog,
 * dispatch) and the two futures an acknowledgement waits for, durability under the flush policy and
 * replication under the {@link ReplicationPolicy} (the replication strategy plugin reports its
 * replicas' acknowledgements to the store). It owns the one role/epoch state of the broker:
 * {@link #role()}, changed only by {@link #becomeMaster} and {@link #becomeReplica}; the broker
 * observes it from here. Besides: pull (ConsumeQueue → stored bytes), lookups, query by key, the epoch
 * history and the SyncStateSet of controller mode, and lifecycle (recovery at open, checkpoint and abort
 * file, retention every 10 s on the context's scheduler).
 *
 * <p>Threads: every method is thread-safe. Appends are serialized only by the CommitLog's short lock;
 * dispatch to ConsumeQueues and the index runs on the appending thread, so a message is readable through
 * {@link #getMessages} by the time its append returns (in controller mode, once the confirm offset
 * passes it). Replication futures complete on the store's completion thread.
 *
 * <p>Buffers: every {@link ByteBuf} returned (in results or by {@link #readMessage}) is owned by the
 * caller and must be released once.
 */
public final class MessageStore implements AutoCloseable {

    /** Key: ms between attempts to find out whether a failed storage operation works again. */
    public static final String PROBE_INTERVAL_KEY = "storeFaultProbeInterval";

    private static final Logger LOG = LoggerFactory.getLogger(MessageStore.class);

    private final StoreParts parts;
    private final FlushPolicy flush;
    private final MessageReader reader;
    private final KeyQuery keys;
    private final ExecutorService completions;
    private final ReplicationTracker tracker;
    private final MetricsSink.Histogram replicationLatency;
    /** Replication wait buckets in seconds, 0.5 ms to 5 s (syncFlushTimeout's default). */
    private static final double[] REPLICATION_BUCKETS = {0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25,
        0.5, 1, 2.5, 5};
    private final RoleTransitions roles;
    private final ReplicatedLog replicatedLog;
    private final ReplicationStrategy strategy;
    private final ScheduledFuture<?> maintenance;
    private final ScheduledFuture<?> logicsFlush;
    private final ScheduledFuture<?> healthProbe;
    private final StorageBackend ownedBackend;
    private final WriteHealth health = new WriteHealth();
    private final FlushTarget flushTarget;
    private volatile long lastStoreTimestamp;
    private volatile boolean closed;
    private Map<String, Double> openPhases = Map.of();

    private MessageStore(StoreParts parts, FlushPolicyProvider flushProvider,
                         ReplicationStrategyProvider replicationProvider, PluginContext context,
                         StorageBackend ownedBackend) {
        this.parts = parts;
        this.ownedBackend = ownedBackend;
        ConfigValues values = parts.config().values();
        this.flushTarget = health.watch(parts.log());
        this.flush = flushProvider.create(PluginConfig.of(flushProvider.configKeys(), values),
                new FlushContext(context, flushTarget));
        flush.start();
        this.reader = new MessageReader(parts.log(), parts.queues());
        this.keys = new KeyQuery(parts.log(), parts.index());
        this.completions = Executors.newSingleThreadExecutor(runnable -> {
            Thread thread = new Thread(runnable, "StoreReplicationCompletion");
            thread.setDaemon(true);
            return thread;
        });
        this.replicationLatency = context.metrics().histogram("modmq_replication_latency_seconds",
                "Time a synchronous send waits until enough in-sync replicas hold it", REPLICATION_BUCKETS).labels();
        ReplicationPolicy policy = ReplicationPolicy.from(values);
        this.tracker = new ReplicationTracker(policy, parts.log()::maxOffset, this::epochStart, context.clock(),
                context.scheduler(), completions, parts.dispatch()::doWork);
        if (policy.controllerMode()) {
            parts.dispatch().limit(tracker::confirmOffset);
        }
        this.roles = new RoleTransitions(parts, tracker, initialRole(values, parts));
        this.replicatedLog = new StoreReplicatedLog(parts, tracker, roles);
        this.strategy = replicationProvider == null ? new LocalOnlyReplication()
                : createReplication(replicationProvider, values, new ReplicationContext(context, replicatedLog, tracker));
        try {
            strategy.start();
            roles.start(strategy, values.longValue("brokerId", policy.controllerMode() ? -1 : 0));
        } catch (RuntimeException e) {
            strategy.close();
            completions.shutdownNow();
            flush.close();
            throw e;
        }
        this.maintenance = context.scheduler().scheduleWithFixedDelay(this::runMaintenance, 10, 10, TimeUnit.SECONDS);
        long logicsPeriod = values.longValue("flushIntervalConsumeQueue", 1000);
        this.logicsFlush = context.scheduler().scheduleWithFixedDelay(this::flushLogics, logicsPeriod, logicsPeriod,
                TimeUnit.MILLISECONDS);
        long probePeriod = values.longValue(PROBE_INTERVAL_KEY, 500);
        this.healthProbe = context.scheduler().scheduleWithFixedDelay(this::probeHealth, probePeriod, probePeriod,
                TimeUnit.MILLISECONDS);
    }

    /** Creates the strategy; closes the flush policy when that fails, as nothing else will. */
    private ReplicationStrategy createReplication(ReplicationStrategyProvider provider, ConfigValues values,
                                                  ReplicationContext replicationContext) {
        try {
            return provider.create(PluginConfig.of(provider.configKeys(), values), replicationContext);
        } catch (RuntimeException e) {
            completions.shutdownNow();
            flush.close();
            throw e;
        }
    }

    /**
     * The role a store opens in: controller mode starts as a replica of no master (the controller says
     * who is master), classic {@code brokerRole=SLAVE} as a replica of {@code haMasterAddress} (or of no
     * master until the name servers name one), any other role as master of epoch 0.
     */
    private static RoleState initialRole(ConfigValues values, StoreParts parts) {
        if (values.bool("enableControllerMode", false)) {
            return new RoleState(ReplicaRole.REPLICA, parts.epochs().lastEpoch(), null);
        }
        if (BrokerRole.SLAVE.name().equals(values.string("brokerRole", BrokerRole.ASYNC_MASTER.name()))) {
            return new RoleState(ReplicaRole.REPLICA, 0, values.get("haMasterAddress").orElse(null));
        }
        return new RoleState(ReplicaRole.MASTER, 0, null);
    }

    /**
     * Opens (and recovers) a store on {@code backend}, which the caller owns and closes after the store.
     * The flush policy and the replication strategy are created from the providers and owned by the store;
     * a null {@code replicationProvider} means no replication.
     *
     * @param diskUsage fraction (0..1) of the store's file system in use; probed every 10 s
     */
    public static MessageStore open(StoreConfig config, StorageBackend backend, FlushPolicyProvider flushProvider,
                                    ReplicationStrategyProvider replicationProvider, PluginContext context,
                                    DoubleSupplier diskUsage) {
        Objects.requireNonNull(flushProvider, "flushProvider");
        OpenTimer timer = new OpenTimer();
        StoreParts parts = StoreParts.open(config, backend, context, diskUsage, timer);
        try {
            return opened(new MessageStore(parts, flushProvider, replicationProvider, context, null), timer);
        } catch (RuntimeException e) {
            parts.closeCleanly(0);
            throw e;
        }
    }

    /** A store without replication on {@code backend}, probing the real disk. */
    public static MessageStore open(StoreConfig config, StorageBackend backend, FlushPolicyProvider flushProvider,
                                    PluginContext context, DoubleSupplier diskUsage) {
        return open(config, backend, flushProvider, null, context, diskUsage);
    }

    /** A store without replication on {@code backend}, probing the real disk. */
    public static MessageStore open(StoreConfig config, StorageBackend backend, FlushPolicyProvider flushProvider,
                                    PluginContext context) {
        return open(config, backend, flushProvider, null, context, diskUsageOf(config.rootDir()));
    }

    /**
     * Opens a store choosing the backend ({@code storeBackend}), flush policy ({@code flushDiskType}) and,
     * when {@code haStrategy} is set, the replication strategy by name through {@link ProviderRegistry};
     * the store owns and closes the backend.
     *
     * @throws org.modmq.api.spi.UnknownProviderException when a name has no provider
     */
    public static MessageStore open(ConfigValues values, PluginContext context) {
        OpenTimer timer = new OpenTimer();
        StoreConfig config = StoreConfig.from(values, context.storeRoot());
        FlushPolicyProvider flushProvider = ProviderRegistry.load(FlushPolicyProvider.class).get(config.flushDiskType());
        ReplicationStrategyProvider replication = values.get("haStrategy")
                .map(name -> ProviderRegistry.load(ReplicationStrategyProvider.class).get(name)).orElse(null);
        StorageBackendProvider backendProvider = ProviderRegistry.load(StorageBackendProvider.class)
                .get(config.storeBackend());
        StorageBackend backend = backendProvider.create(PluginConfig.of(backendProvider.configKeys(), values), context);
        timer.mark("config and plugins");
        try {
            backend.start();
            timer.mark("backend start");
            StoreParts parts = StoreParts.open(config, backend, context, diskUsageOf(config.rootDir()), timer);
            try {
                return opened(new MessageStore(parts, flushProvider, replication, context, backend), timer);
            } catch (RuntimeException e) {
                parts.closeCleanly(0);
                throw e;
            }
        } catch (RuntimeException e) {
            backend.close();
            throw e;
        }
    }

    /** Logs where the open's time went (flush policy, replication and role are the last phase). */
    private static MessageStore opened(MessageStore store, OpenTimer timer) {
        timer.mark("flush, replication and role");
        store.openPhases = timer.phases();
        LOG.info("store opened, {}", timer.summary());
        return store;
    }

    /** Milliseconds each phase of this store's open took, in order (what the INFO line at open says). */
    Map<String, Double> openPhases() {
        return openPhases;
    }

    /** The real disk usage of the file system holding {@code root} (see {@link DiskUsage}). */
    public static DoubleSupplier diskUsageOf(Path root) {
        return DiskUsage.of(root);
    }

    /** Stores one message; the future completes (never exceptionally) when flush and replication say so. */
    public CompletableFuture<PutResult> putMessage(BrokerMessage message) {
        Objects.requireNonNull(message, "message");
        return putMessages(List.of(message));
    }

    /**
     * Stores a batch of one topic-queue with consecutive queue offsets, all or nothing, and completes
     * (never exceptionally) when it is as durable and as replicated as configured:
     * {@code append(messages, true).acknowledged()}.
     */
    public CompletableFuture<PutResult> putMessages(List<BrokerMessage> messages) {
        return append(messages, true).acknowledged();
    }

    /** {@link #append(List, boolean)} waiting for replication as the policy says. */
    public AppendedPut append(List<BrokerMessage> messages) {
        return append(messages, true);
    }

    /**
     * Stores a batch of one topic-queue with consecutive queue offsets (a prepared or rolled-back
     * transaction record takes none: its offset is 0 and it gets no ConsumeQueue entry), all or nothing,
     * and returns at once with the append's outcome (offsets, message ids) and, separately, the futures
     * of its durability (flush policy) and replication (a master's policy; {@code awaitReplication=false}, a producer's
     * {@code WAIT=false}, completes it at once). Refused (nothing stored) with SERVICE_NOT_AVAILABLE on a
     * replica or a closed store, DISK_FULL, MESSAGE_ILLEGAL, PROPERTIES_SIZE_EXCEEDED, and in controller
     * mode IN_SYNC_REPLICAS_NOT_ENOUGH. Thread-safe; the records are dispatched when this returns (in
     * controller mode once confirmed).
     */
    public AppendedPut append(List<BrokerMessage> messages, boolean awaitReplication) {
        if (closed) {
            return AppendedPut.refused(PutStatus.SERVICE_NOT_AVAILABLE, "store closed");
        }
        if (!roles.master()) {
            return AppendedPut.refused(PutStatus.SERVICE_NOT_AVAILABLE, "this broker is a replica and takes no messages");
        }
        if (parts.retention().diskFull()) {
            return AppendedPut.refused(PutStatus.DISK_FULL,
                    "disk usage is above diskSpaceWarningLevelRatio " + parts.config().diskSpaceWarningLevelRatio());
        }
        if (!health.writable()) {
            return AppendedPut.refused(PutStatus.SERVICE_NOT_AVAILABLE, "the message store is not writable after a "
                    + "storage error (" + health.reason() + ")");
        }
        if (awaitReplication) {
            PutStatus refused = tracker.admission();
            if (refused != null) {
                return AppendedPut.refused(refused, "in-sync replicas not enough: the SyncStateSet " + tracker.effectiveSet()
                        + " is smaller than minInSyncReplicas " + tracker.policy().minInSyncReplicas());
            }
        }
        AppendResult appended = parts.log().appendBatch(messages);
        if (!appended.ok()) {
            if (appended.status() == PutStatus.UNKNOWN_ERROR) {
                // The CommitLog answers UNKNOWN_ERROR only for a storage error (nothing of the batch is readable).
                health.failed(WriteHealth.Area.COMMIT_LOG_WRITE, appended.detail());
            }
            return AppendedPut.refused(appended.status(), appended.detail());
        }
        lastStoreTimestamp = appended.storeTimestamp();
        dispatchNow();
        long end = appended.endOffset();
        tracker.appended(end);
        strategy.appended(end);
        List<String> ids = new ArrayList<>(appended.count());
        for (int i = 0; i < appended.count(); i++) {
            ids.add(MessageIds.offsetMsgId(messages.get(i).storeHost(), appended.recordOffsets().get(i)));
        }
        PutResult stored = new PutResult(PutStatus.PUT_OK, appended.commitLogOffset(), appended.size(),
                appended.queueOffset(), appended.count(), appended.storeTimestamp(), ids, "");
        CompletableFuture<PutResult> durable = AppendedPut.outcome(stored, flush.appended(end));
        CompletableFuture<PutResult> replicated = awaitReplication
                ? AppendedPut.outcome(stored, timed(tracker.awaitReplicated(end)))
                : CompletableFuture.completedFuture(stored);
        return new AppendedPut(stored, durable, replicated);
    }

    /** Observes how long a synchronous send waited for its replicas ({@code modmq_replication_latency_seconds}). */
    private CompletableFuture<Void> timed(CompletableFuture<Void> replicated) {
        if (replicated.isDone()) {
            return replicated;
        }
        long started = System.nanoTime();
        replicated.whenComplete((done, failure) -> {
            if (failure == null) {
                replicationLatency.observe((System.nanoTime() - started) / 1e9);
            }
        });
        return replicated;
    }

    /**
     * Dispatches what was appended. A ConsumeQueue or index write that fails leaves the record in the
     * CommitLog, undispatched: consumers see it once dispatch works again (or after recovery), and the
     * store takes no writes until then.
     */
    private void dispatchNow() {
        try {
            parts.dispatch().doWork();
        } catch (StorageException e) {
            health.failed(WriteHealth.Area.LOGICS, e.getMessage());
        } catch (RuntimeException e) {
            // A bug or a record dispatch cannot handle: the appended record stays undispatched, so the store
            // takes no writes until the health probe dispatches it, rather than letting the error escape
            // the put (and the dispatcher stay behind without a word).
            LOG.error("dispatch failed at CommitLog offset {}", parts.dispatch().dispatchedOffset(), e);
            health.failed(WriteHealth.Area.LOGICS, "dispatch failed at CommitLog offset "
                    + parts.dispatch().dispatchedOffset() + ": " + e);
        }
    }

    /** Whether the store takes writes: false while a storage error lasts (RocketMQ's "not writeable"). */
    public boolean writable() {
        return health.writable();
    }

    /** Why the store takes no writes; empty when it does. */
    public String unwritableReason() {
        return health.reason();
    }

    /**
     * Tells {@code listener} each time the store stops or starts taking writes after a storage error
     * (false, then true once the failed operations work again); it runs on the thread that noticed and
     * must not block.
     */
    public void addWritabilityListener(Consumer<Boolean> listener) {
        health.addListener(Objects.requireNonNull(listener, "listener"));
    }

    /**
     * While a storage error lasts (every {@code storeFaultProbeInterval} ms, on the scheduler): tries each
     * failed operation again: zeroes the CommitLog tail a failed append may have left, forces the
     * CommitLog, dispatches and forces the ConsumeQueues; each that succeeds recovers.
     */
    void probeHealth() {
        if (closed || health.writable()) {
            return;
        }
        try {
            if (health.failing(WriteHealth.Area.COMMIT_LOG_WRITE)) {
                parts.log().scrubTail();
                health.recovered(WriteHealth.Area.COMMIT_LOG_WRITE);
            }
            if (health.failing(WriteHealth.Area.COMMIT_LOG_FORCE)) {
                flushTarget.flush();
            }
            if (health.failing(WriteHealth.Area.LOGICS)) {
                synchronized (this) {
                    if (closed) {
                        return;
                    }
                    parts.dispatch().doWork();
                    parts.flushLogics(lastStoreTimestamp);
                }
                health.recovered(WriteHealth.Area.LOGICS);
            }
        } catch (RuntimeException e) {
            // Any exception: one escaping would cancel this periodic probe, and the store would stay unwritable.
            LOG.debug("storage still failing: {}", e.toString());
        }
    }

    // ---- role, epochs, replication ----

    /** The store's role now. */
    public RoleState role() {
        return roles.state();
    }

    /**
     * Tells {@code listener} every role change, after it took effect (on the transitioning thread; it
     * must not block or change the role itself).
     */
    public void addRoleListener(Consumer<RoleState> listener) {
        roles.addListener(listener);
    }

    /**
     * Becomes master of {@code epoch} (0: classic replication, no epoch recorded) as broker
     * {@code brokerId}: a partial replicated record at the tail is cut off, the epoch is recorded as
     * starting at the log's end when above the last one, then local writes open and the strategy serves
     * replicas. Idempotent for the current role.
     *
     * @throws StaleEpochException when {@code epoch} is older than one this store knows
     */
    public void becomeMaster(int epoch, long brokerId) {
        becomeMaster(epoch, brokerId, () -> { });
    }

    /**
     * As {@link #becomeMaster(int, long)}, running {@code writesOpen} as soon as local writes are open, on
     * this thread and before the replication strategy and the role listeners are told (they may take tens
     * of milliseconds on a busy host); when the store already is master of {@code epoch} it runs at once.
     * It must not block; a new master registers from it.
     */
    public void becomeMaster(int epoch, long brokerId, Runnable writesOpen) {
        roles.becomeMaster(epoch, brokerId, Objects.requireNonNull(writesOpen, "writesOpen"));
    }

    /**
     * Becomes a replica in {@code epoch} following {@code masterHaAddress} (null: none known yet): local
     * writes close, waiting sends fail with SERVICE_NOT_AVAILABLE, the strategy follows the master.
     *
     * @param brokerId this broker's id (sent to the master by epoch-aware protocols)
     * @throws StaleEpochException when {@code epoch} is older than one this store knows
     */
    public void becomeReplica(int epoch, String masterHaAddress, long brokerId) {
        roles.becomeReplica(epoch, masterHaAddress, brokerId);
    }

    /** The epoch history, oldest first. */
    public List<EpochEntry> epochs() {
        return parts.epochs().entries();
    }

    private long epochStart() {
        EpochEntry last = parts.epochs().last();
        return last == null ? 0 : last.startOffset();
    }

    /** Bytes below this CommitLog offset are confirmed (see {@link ReplicatedLog#confirmOffset()}). */
    public long getConfirmOffset() {
        return tracker.confirmOffset();
    }

    /** Master: the connected replicas; empty on a replica. */
    public List<ReplicaState> replicas() {
        return tracker.replicas();
    }

    /** Sends waiting for replication now. */
    public int pendingReplicationSends() {
        return tracker.pendingSends();
    }

    /** Controller mode: the SyncStateSet the controller confirmed, this master's id included. */
    public Set<Long> syncStateSet() {
        return tracker.syncStateSet();
    }

    /** Controller mode: a SyncStateSet change sent to the controller; until it answers, both sets count. */
    public void proposeSyncStateSet(Set<Long> members) {
        tracker.proposeSyncStateSet(members);
    }

    /** Controller mode: the SyncStateSet the controller confirmed; ends a proposal. */
    public void applySyncStateSet(Set<Long> members) {
        tracker.applySyncStateSet(members);
    }

    /** Controller mode: members that should leave the SyncStateSet (disconnected or not caught up in time). */
    public Set<Long> laggingReplicas() {
        return tracker.laggingMembers();
    }

    /** Controller mode: connected replicas caught up enough to join the SyncStateSet. */
    public Set<Long> joinableReplicas() {
        return tracker.joinableReplicas();
    }

    /**
     * Controller mode: tells {@code listener} at once when a SyncStateSet member disconnects or a replica
     * outside it catches up (strategy threads; it must not block).
     */
    public void addSyncStateListener(SyncStateListener listener) {
        Objects.requireNonNull(listener, "listener");
        tracker.addListeners(listener::replicaLost, listener::replicaCaughtUp);
    }

    /** The CommitLog for tools and tests; the replication strategy gets the same view. */
    public ReplicatedLog replicatedLog() {
        return replicatedLog;
    }

    /** The replication strategy's provider name ({@code none} without one). */
    public String replicationStrategyName() {
        return strategy.name();
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

    /** The ConsumeQueue entry at {@code queueOffset}, if held. */
    public Optional<QueueEntry> queueEntry(String topic, int queueId, long queueOffset) {
        ConsumeQueue queue = parts.queues().get(topic, queueId, false);
        ConsumeQueueEntry entry = queue == null ? null : queue.entry(queueOffset);
        return entry == null ? Optional.empty() : Optional.of(new QueueEntry(entry.queueOffset(),
                entry.commitLogOffset(), entry.size(), entry.tagCode()));
    }

    /** The delay levels dispatch computes SCHEDULE_TOPIC_XXXX delivery times with. */
    public DelayLevels delayLevels() {
        return parts.config().delayLevels();
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
        return keys.query(topic, key, maxNum, begin, end);
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
        // A full disk refuses writes (DISK_FULL) and, like a storage error, is told to the name servers.
        if (parts.retention().diskFull()) {
            health.failed(WriteHealth.Area.DISK_FULL, "disk usage is above diskSpaceWarningLevelRatio "
                    + parts.config().diskSpaceWarningLevelRatio());
        } else {
            health.recovered(WriteHealth.Area.DISK_FULL);
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
        } catch (StorageException e) {
            health.failed(WriteHealth.Area.LOGICS, e.getMessage());
        } catch (IllegalStateException e) {
            LOG.error("ConsumeQueue and index flush failed", e);
        }
    }

    /**
     * Stops replication, forces everything, writes the checkpoint, removes the abort file and closes.
     * Idempotent.
     */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        maintenance.cancel(false);
        logicsFlush.cancel(false);
        healthProbe.cancel(false);
        try {
            strategy.close();
        } catch (RuntimeException e) {
            LOG.error("closing replication strategy {} failed", strategy.name(), e);
        }
        tracker.close();
        completions.shutdown();
        try {
            if (!completions.awaitTermination(5, TimeUnit.SECONDS)) {
                LOG.warn("replication completions still running after 5 s");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        flush.close();
        try {
            parts.closeCleanly(lastStoreTimestamp);
        } finally {
            // After a storage error the clean close fails (abort stays, recovery runs at the next open); the
            // backend still lets go of its files.
            if (ownedBackend != null) {
                ownedBackend.close();
            }
        }
    }
}
