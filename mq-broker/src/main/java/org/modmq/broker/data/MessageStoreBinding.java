package org.modmq.broker.data;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Consumer;
import org.modmq.api.config.ConfigValues;
import org.modmq.api.config.PluginConfig;
import org.modmq.api.spi.PluginContext;
import org.modmq.api.spi.TransportTls;
import org.modmq.api.spi.replication.RoleState;
import org.modmq.api.spi.storage.StorageBackend;
import org.modmq.broker.config.BrokerConfig;
import org.modmq.broker.config.BrokerIdentityConfig;
import org.modmq.broker.runtime.BrokerRuntime;
import org.modmq.broker.runtime.PluginSelection;
import org.modmq.broker.runtime.ProcessorRegistrar;
import org.modmq.broker.runtime.ProcessorRegistrar.ExecutorKind;
import org.modmq.broker.runtime.QueueOffsets;
import org.modmq.broker.runtime.QueueStatsSource;
import org.modmq.broker.runtime.StoreBinding;
import org.modmq.broker.runtime.StoreBindingFactory;
import org.modmq.broker.schedule.DelayService;
import org.modmq.broker.transaction.Transactions;
import org.modmq.broker.timer.TimerRunner;
import org.modmq.remoting.netty.RequestProcessor;
import org.modmq.store.GetMessageResult;
import org.modmq.store.MessageStore;
import org.modmq.store.StoreConfig;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The real store binding: opens a {@link MessageStore} on the StorageBackend, FlushPolicy and
 * ReplicationStrategy named by {@code storeBackend}, {@code flushDiskType} and {@code haStrategy} (found
 * by ServiceLoader, never by class), registers the send, pull, query, send-back and lock processors, and
 * answers queue bounds. Owns the store, the backend and the long-polling agent; {@link #close()} drops
 * held pulls, then closes the store (which stops replication, flushes, checkpoints and removes the abort
 * marker), then the backend. Owns the delay levels' delivery too ({@link DelayService}), stopped before the
 * store closes. Thread-safe; close is idempotent.
 * answers queue bounds. Owns the store, the backend, the long-polling agent and the timer agent
 * ({@code timerWheelEnable}); {@link #close()} drops held pulls, stops the timer agent, then closes the
 * store (which stops replication, flushes, checkpoints and removes the abort marker), then the backend. Thread-safe; close is idempotent.
 *
 * <p>Role: the store owns it. In classic replication a slave follows {@code haMasterAddress} when it is
 * configured, else the HA address the name servers' REGISTER_BROKER answers name ({@link #masterChanged}).
 *
 * <p>The store receives the broker's raw values with {@code haListenPort} replaced by the port the broker
 * resolved (and advertises as {@code haServerAddr}), because the plugins read an explicit 0 as
 * "ephemeral" where the broker reads it as {@code listenPort + 1}.
 */
public final class MessageStoreBinding implements StoreBinding, QueueOffsets {

    /** Opens the store with the plugins discovered on the module path. */
    public static final StoreBindingFactory FACTORY = runtime -> open(runtime, PluginSelection.discover());

    private static final Logger LOG = LoggerFactory.getLogger(MessageStoreBinding.class);

    private final BrokerRuntime runtime;
    private final StorageBackend backend;
    private final MessageStore store;
    private final DataPath path;
    private final Transactions transactions;
    private final PullMessageProcessor pull;
    private final long memoryBytes;
    private final QueueStatsSource queueStats;
    private final DelayService delay;
    private final TimerRunner timers;
    private String followed;
    private boolean closed;

    private MessageStoreBinding(BrokerRuntime runtime, StorageBackend backend, MessageStore store) {
        this.runtime = runtime;
        this.backend = backend;
        this.store = store;
        this.transactions = Transactions.open(runtime, store);
        this.path = new DataPath(runtime, store, transactions);
        this.pull = new PullMessageProcessor(path);
        this.memoryBytes = PullRouting.physicalMemory();
        this.queueStats = new StoreQueueStats(store);
        this.delay = new DelayService(runtime.config().store().delayLevels(), store, runtime.metadata().delayOffsets(),
                runtime.metadata().topics(), runtime.clock()).schedule(runtime.scheduler());
        this.followed = runtime.config().replication().masterAddress().orElse(null);
        this.timers = runtime.config().timer().wheelEnable() ? TimerRunner.start(store,
                new java.net.InetSocketAddress(runtime.config().identity().ip1(), runtime.config().identity().listenPort()),
                runtime.config().timer(), runtime.clock(), runtime.config().store().rootDir(), runtime.stats().events())
                : null;
    }

    /**
     * Opens the store for {@code runtime}.
     *
     * @throws org.modmq.api.config.ConfigException when a plugin name is unknown or a plugin key is bad
     * @throws java.io.UncheckedIOException when the HA port cannot be bound
     */
    public static MessageStoreBinding open(BrokerRuntime runtime, PluginSelection plugins) {
        Objects.requireNonNull(runtime, "runtime");
        Objects.requireNonNull(plugins, "plugins");
        BrokerConfig config = runtime.config();
        BrokerIdentityConfig identity = config.identity();
        Optional<TransportTls> haTls = config.replication().haTlsEnable()
                ? Optional.of(HaTransportTls.of(config.tls())) : Optional.empty();
        PluginContext context = new PluginContext(runtime.clock(), runtime.scheduler(),
                PooledByteBufAllocator.DEFAULT, config.store().rootDir(), haTls, runtime.metrics());
        var flush = plugins.flushPolicy(config);
        var replication = plugins.replicationStrategy(config);
        if (identity.haListenPort() == 0) {
            LOG.warn("haListenPort resolves to 0 (listenPort=0): the HA port is ephemeral and the address "
                    + "advertised to the name servers ({}) does not reach it; set haListenPort", identity.haServerAddr());
        }
        ConfigValues values = config.raw().with("haListenPort", String.valueOf(identity.haListenPort()));
        var storage = plugins.storageBackend(config);
        StorageBackend backend = storage.create(PluginConfig.of(storage.configKeys(), config.raw(), config.source()),
                context);
        try {
            backend.start();
            StoreConfig storeConfig = StoreConfig.from(values, config.store().rootDir());
            MessageStore store = MessageStore.open(storeConfig, backend, flush, replication, context,
                    MessageStore.diskUsageOf(storeConfig.rootDir()));
            LOG.info("message store open at {} (backend {}, flush {}, replication {} as {}, recovery {})",
                    storeConfig.rootDir(), storeConfig.storeBackend(), store.flushPolicyName(),
                    store.replicationStrategyName(), store.role(), store.recoveryReport());
            return new MessageStoreBinding(runtime, backend, store);
        } catch (RuntimeException e) {
            backend.close();
            throw e;
        }
    }

    /** The open store (for tests and tools of this module); owned by this binding. */
    public MessageStore store() {
        return store;
    }

    /** Transactional messages on this store (for tests and tools of this module). */
    public Transactions transactions() {
        return transactions;
    }

    @Override
    public java.util.Optional<MessageStore> messageStore() {
        return java.util.Optional.of(store);
    }

    /** The delay levels' delivery (for tests of this module). */
    public DelayService delayService() {
        return delay;
    }

    /** The number of pulls held by long polling now. */
    public int heldPulls() {
        return pull.heldPulls();
    }

    @Override
    public QueueOffsets queueOffsets() {
        return this;
    }

    @Override
    public QueueStatsSource queueStats() {
        return queueStats;
    }

    @Override
    public RoleState role() {
        return store.role();
    }

    @Override
    public void addRoleListener(Consumer<RoleState> listener) {
        store.addRoleListener(listener);
    }

    @Override
    public void registerProcessors(ProcessorRegistrar registrar) {
        registrar.register(ExecutorKind.SEND, new SendMessageProcessor(path), SendMessageProcessor.CODES);
        registrar.register(ExecutorKind.SEND, new SendBackProcessor(path), SendBackProcessor.CODES);
        registrar.register(ExecutorKind.SEND, transactions.endTransactionProcessor(), Transactions.END_CODES);
        registrar.register(ExecutorKind.PULL, pull, PullMessageProcessor.CODES);
        registrar.register(ExecutorKind.ADMIN, RequestProcessor.sync(new QueryMessageProcessor(path)),
                QueryMessageProcessor.CODES);
        registrar.register(ExecutorKind.CONSUMER_MANAGE, RequestProcessor.sync(
                new QueueLockProcessor(runtime.clock())), QueueLockProcessor.CODES);
    }

    @Override
    public void deleteTopicQueues(String topic) {
        // The store API has no queue deletion yet; the queues age out with retention.
        LOG.warn("ConsumeQueues of deleted topic {} are kept until retention removes them", topic);
    }

    @Override
    public long minOffset(String topic, int queueId) {
        return store.getMinOffsetInQueue(topic, queueId);
    }

    @Override
    public long maxOffset(String topic, int queueId) {
        return store.getMaxOffsetInQueue(topic, queueId);
    }

    /**
     * Approximation of RocketMQ's rule: the message exists and the CommitLog distance from it to the head
     * is within {@code accessMessageInMemoryMaxRatio} percent of physical memory.
     */
    @Override
    public boolean isInMemory(String topic, int queueId, long offset) {
        if (offset < store.getMinOffsetInQueue(topic, queueId) || offset >= store.getMaxOffsetInQueue(topic, queueId)) {
            return false;
        }
        try (GetMessageResult result = store.getMessages(topic, queueId, offset, 1, code -> true, 1)) {
            if (result.messages().isEmpty()) {
                return false;
            }
            ByteBuf record = result.messages().get(0);
            long physical = record.getLong(record.readerIndex() + 28);
            long lag = store.getCommitLogMaxOffset() - physical;
            return lag <= memoryBytes / 100 * runtime.current().consume().accessMessageInMemoryMaxRatio();
        }
    }

    /**
     * Classic slave: follows the master's HA address unless {@code haMasterAddress} is configured or it is
     * the address already followed. A null address (the master is not live) keeps the current one: the
     * strategy keeps redialling it. Ignored on a master and in controller mode (the controller names the
     * master there).
     */
    @Override
    public void masterChanged(String masterAddr, String masterHaAddr) {
        if (masterHaAddr == null || store.role().master() || store.role().epoch() != 0
                || runtime.config().raw().bool("enableControllerMode", false)) {
            return;
        }
        synchronized (this) {
            if (closed || runtime.config().replication().masterAddress().isPresent()
                    || masterHaAddr.equals(followed)) {
                return;
            }
            followed = masterHaAddr;
        }
        LOG.info("following master {} at HA address {}", masterAddr, masterHaAddr);
        store.becomeReplica(0, masterHaAddr, runtime.config().identity().brokerId());
    }

    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        transactions.close();
        try {
            pull.close();
            delay.close();
            if (timers != null) {
                timers.close();
            }
        } finally {
            try {
                store.close();
            } finally {
                try {
                    // Deliveries acknowledged while the store closed move the delay offsets once more.
                    runtime.metadata().delayOffsets().persist();
                } finally {
                    backend.close();
                }
            }
        }
    }
}
