package org.modmq.broker.data;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import java.util.Objects;
import org.modmq.api.spi.PluginContext;
import org.modmq.api.spi.storage.StorageBackend;
import org.modmq.broker.config.BrokerConfig;
import org.modmq.broker.replication.ReplicationBinding;
import org.modmq.broker.runtime.BrokerRuntime;
import org.modmq.broker.runtime.PluginSelection;
import org.modmq.broker.runtime.ProcessorRegistrar;
import org.modmq.broker.runtime.ProcessorRegistrar.ExecutorKind;
import org.modmq.broker.runtime.QueueOffsets;
import org.modmq.broker.runtime.QueueStatsSource;
import org.modmq.broker.runtime.ReplicationGate;
import org.modmq.broker.runtime.StoreBinding;
import org.modmq.broker.runtime.StoreBindingFactory;
import org.modmq.remoting.netty.RequestProcessor;
import org.modmq.store.GetMessageResult;
import org.modmq.store.MessageStore;
import org.modmq.store.StoreConfig;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The real store binding: opens a {@link MessageStore} on the StorageBackend and FlushPolicy named by
 * {@code storeBackend} and {@code flushDiskType} (found by ServiceLoader, never by class), registers the
 * send, pull, query, send-back and lock processors, and answers queue bounds. Owns the store, the
 * backend, the replication strategy and the long-polling agent; {@link #close()} drops held pulls,
 * stops replication, then flushes, checkpoints and closes the store (removing the abort marker), then
 * the backend. Thread-safe; close is idempotent.
 *
 * <p>Replication: the ReplicationStrategy named by {@code haStrategy} runs in a {@link ReplicationBinding}
 * opened right after the store: every append is reported to it, a SYNC_MASTER's sends wait for it
 * (together with the flush, see {@link ReplicationGate}), and a slave follows the master named by
 * {@link #masterChanged}.
 */
public final class MessageStoreBinding implements StoreBinding, QueueOffsets {

    /** Opens the store with the plugins discovered on the module path. */
    public static final StoreBindingFactory FACTORY = runtime -> open(runtime, PluginSelection.discover());

    private static final Logger LOG = LoggerFactory.getLogger(MessageStoreBinding.class);

    private final BrokerRuntime runtime;
    private final StorageBackend backend;
    private final MessageStore store;
    private final ReplicationBinding replication;
    private final DataPath path;
    private final PullMessageProcessor pull;
    private final long memoryBytes;
    private final QueueStatsSource queueStats;
    private boolean closed;

    private MessageStoreBinding(BrokerRuntime runtime, StorageBackend backend, MessageStore store,
                                ReplicationBinding replication) {
        this.runtime = runtime;
        this.backend = backend;
        this.store = store;
        this.replication = replication;
        this.path = new DataPath(runtime, store, replication, () -> !replication.replicas().isEmpty());
        this.pull = new PullMessageProcessor(path);
        this.memoryBytes = PullRouting.physicalMemory();
        this.queueStats = new StoreQueueStats(store);
    }

    /**
     * Opens the store for {@code runtime}.
     *
     * @throws org.modmq.api.config.ConfigException when a plugin name is unknown
     */
    public static MessageStoreBinding open(BrokerRuntime runtime, PluginSelection plugins) {
        Objects.requireNonNull(runtime, "runtime");
        Objects.requireNonNull(plugins, "plugins");
        BrokerConfig config = runtime.config();
        PluginContext context = new PluginContext(runtime.clock(), runtime.scheduler(),
                PooledByteBufAllocator.DEFAULT, config.store().rootDir());
        var flush = plugins.flushPolicy(config);
        StorageBackend backend = plugins.storageBackend(config).create(config.raw(), context);
        try {
            StoreConfig storeConfig = StoreConfig.from(config.raw(), config.store().rootDir());
            MessageStore store = MessageStore.open(storeConfig, backend, flush, context);
            LOG.info("message store open at {} (backend {}, flush {}, recovery {})", storeConfig.rootDir(),
                    storeConfig.storeBackend(), store.flushPolicyName(), store.recoveryReport());
            try {
                return new MessageStoreBinding(runtime, backend, store,
                        ReplicationBinding.open(config, plugins, context, store.replicatedLog()));
            } catch (RuntimeException e) {
                store.close();
                throw e;
            }
        } catch (RuntimeException e) {
            backend.close();
            throw e;
        }
    }

    /** The open store (for tests and tools of this module); owned by this binding. */
    public MessageStore store() {
        return store;
    }

    /** The replication of this broker (for tests and tools of this module); owned by this binding. */
    public ReplicationBinding replication() {
        return replication;
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
    public void registerProcessors(ProcessorRegistrar registrar) {
        registrar.register(ExecutorKind.SEND, new SendMessageProcessor(path), SendMessageProcessor.CODES);
        registrar.register(ExecutorKind.SEND, new SendBackProcessor(path), SendBackProcessor.CODES);
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
            return lag <= memoryBytes / 100 * runtime.config().consume().accessMessageInMemoryMaxRatio();
        }
    }

    /** Slave: follows the master's HA address unless {@code haMasterAddress} is configured. */
    @Override
    public void masterChanged(String masterAddr, String masterHaAddr) {
        replication.masterChanged(masterAddr, masterHaAddr);
    }

    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        try {
            pull.close();
        } finally {
            try {
                replication.close();
            } finally {
                try {
                    store.close();
                } finally {
                    backend.close();
                }
            }
        }
    }
}
