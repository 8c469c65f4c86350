package org.modmq.broker;


import org.modmq.broker.stats.BrokerLoad;
import org.modmq.broker.stats.BrokerStats;

import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import org.modmq.acl.AclService;
import org.modmq.api.spi.MetricsSink;
import org.modmq.broker.admin.AdminContext;
import org.modmq.broker.admin.AdminProcessors;
import org.modmq.broker.admin.ExecutorQueueProbe;
import org.modmq.broker.client.ConsumerGroupRegistry;
import org.modmq.broker.client.ConsumerIdsChangedNotifier;
import org.modmq.broker.client.ProducerRegistry;
import org.modmq.broker.config.BrokerConfig;
import org.modmq.broker.config.BrokerIdentityConfig;
import org.modmq.broker.controller.ControllerMode;
import org.modmq.broker.controller.ControllerModeProcessor;
import org.modmq.broker.controller.ControllerRoleAgent;
import org.modmq.broker.data.MessageStoreBinding;
import org.modmq.broker.metadata.BrokerMetadata;
import org.modmq.broker.metadata.SubscriptionGroupConfig;
import org.modmq.broker.metrics.BrokerGauges;
import org.modmq.broker.metrics.ConsumerLagGauges;
import org.modmq.broker.processor.BrokerAdminProcessor;
import org.modmq.broker.processor.ClientManageProcessor;
import org.modmq.broker.processor.ConsumerManageProcessor;
import org.modmq.broker.processor.GroupAdminProcessor;
import org.modmq.broker.processor.TopicAdminProcessor;
import org.modmq.broker.registration.NameServerRegistrationAgent;
import org.modmq.broker.registration.MasterListener;
import org.modmq.broker.registration.RegistrationTarget;
import org.modmq.broker.runtime.AccessControl;
import org.modmq.broker.runtime.AckGate;
import org.modmq.broker.runtime.BrokerRuntime;
import org.modmq.broker.runtime.LiveBrokerConfig;
import org.modmq.broker.runtime.ProcessorRegistrar.ExecutorKind;
import org.modmq.broker.runtime.StoreBinding;
import org.modmq.broker.runtime.StoreBindingFactory;
import org.modmq.broker.slave.SlaveMetadataSyncAgent;
import org.modmq.broker.slave.SlaveSyncSettings;
import org.modmq.remoting.netty.ClientTls;
import org.modmq.remoting.netty.RemotingClient;
import org.modmq.remoting.netty.RemotingClientConfig;
import org.modmq.remoting.netty.RemotingServer;
import org.modmq.remoting.netty.RpcLatencyMetrics;
import org.modmq.remoting.netty.RpcObserver;
import org.modmq.remoting.netty.RequestCheck;
import org.modmq.remoting.netty.ServerTls;
import org.modmq.remoting.netty.RequestProcessor;
import org.modmq.remoting.protocol.body.DataVersion;
import org.modmq.metrics.MetricsEndpoint;
import org.modmq.store.MessageStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One broker: metadata tables, client registries, the message store (through a
 * {@code StoreBindingFactory}), the remoting server with its processors on bounded executors, and
 * the name-server registration.
 *
 * <p>Start order: load metadata → open the store binding → register processors (built-in ones, then
 * the store's send/pull processors) → bind and accept → register with the name servers → schedule
 * offset persistence and client expiry. A slave's registration answers name its master; the store
 * binding follows it (replication). Close order: stop registering → stop accepting and drain
 * in-flight requests → unregister from the name servers → stop executors → persist metadata → close
 * the store → stop the scheduler.
 *
 * <p>Threading: {@link #start()} and {@link #close()} are called by the owner; close is idempotent and
 * may run from a shutdown hook. Everything else is thread-safe.
 */
public final class BrokerServer implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(BrokerServer.class);
    private static final long CLIENT_SCAN_PERIOD_MILLIS = 10_000;

    private final BrokerConfig config;
    private final Clock clock;
    private final StoreBindingFactory storeFactory;
    private final ShutdownSequence shutdown = new ShutdownSequence();
    private volatile BrokerRuntime runtime;
    private volatile RemotingServer server;
    private volatile NameServerRegistrationAgent registration;
    private volatile AclService aclService;
    private volatile MetricsEndpoint metrics;
    private boolean started;
    private boolean closed;

    /**
     * The message store the broker opens: the mq-store binding, which picks the StorageBackend,
     * FlushPolicy and ReplicationStrategy by name.
     */
    static final StoreBindingFactory STORE = MessageStoreBinding.FACTORY;

    /**
     * A broker with the message store of this build.
     *
     * @param config the parsed configuration
     * @param clock wall clock
     */
    public BrokerServer(BrokerConfig config, Clock clock) {
        this(config, clock, STORE);
    }

    /**
     * @param config the parsed configuration
     * @param clock wall clock
     * @param storeFactory opens the message store
     */
    BrokerServer(BrokerConfig config, Clock clock, StoreBindingFactory storeFactory) {
        this.config = Objects.requireNonNull(config, "config");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.storeFactory = Objects.requireNonNull(storeFactory, "storeFactory");
    }

    /**
     * Starts the broker. On failure everything opened so far is closed again.
     *
     * @return this
     * @throws IllegalStateException when already started or closed
     */
    public synchronized BrokerServer start() {
        if (started || closed) {
            throw new IllegalStateException(closed ? "broker is closed" : "broker already started");
        }
        started = true;
        try {
            doStart();
        } catch (RuntimeException | Error e) {
            close();
            throw e;
        }
        return this;
    }

    private void doStart() {
        // Certificates are checked before anything is opened: a bad key file stops start-up at once.
        ServerTls serverTls = ServerTls.create(config.tls());
        ClientTls clientTls = ClientTls.create(config.tls());
        LOG.info("TLS: {}", config.tls());
        ScheduledExecutorService scheduler = newScheduler();
        shutdown.at(ShutdownSequence.Step.SCHEDULER, scheduler::shutdownNow);
        // Served first, so that a long store recovery can already be watched (modmq_store_open).
        MetricsEndpoint metricsEndpoint = MetricsEndpoint.start(config.metrics(), nodeLabels(config));
        shutdown.at(ShutdownSequence.Step.METRICS, metricsEndpoint);
        metrics = metricsEndpoint;
        MetricsSink sink = metricsEndpoint.sink();
        AtomicBoolean storeOpen = new AtomicBoolean();
        sink.gaugeCallback("modmq_store_open", "1 once the store has recovered and opened, 0 while it recovers",
                out -> out.sample(storeOpen.get() ? 1 : 0));
        BrokerMetadata metadata = BrokerMetadata.open(config, clock);
        shutdown.at(ShutdownSequence.Step.PERSIST, metadata::persist);
        ConsumerGroupRegistry consumers = new ConsumerGroupRegistry(clock, new ConsumerIdsChangedNotifier(
                group -> metadata.subscriptionGroups().get(group)
                        .map(SubscriptionGroupConfig::notifyConsumerIdsChangedEnable).orElse(true)));
        ProducerRegistry producers = new ProducerRegistry(clock);
        ControllerMode controllerMode = config.controller().enabled() ? new ControllerMode(config, scheduler) : null;
        BrokerLoad load = new BrokerLoad(config.consume().readOffloadSendQueueDepth(),
                config.consume().readOffloadCpuRatio(), BrokerLoad.jvmProcessCpu());
        scheduler.scheduleAtFixedRate(() -> guarded("sample load", load::doWork), 1, 1, TimeUnit.SECONDS);
        LiveBrokerConfig live = new LiveBrokerConfig(config, clock);
        live.addListener(changed -> {
            metadata.topics().autoCreateTopicEnable(changed.topics().autoCreateTopicEnable());
            metadata.subscriptionGroups().autoCreate(changed.topics().autoCreateSubscriptionGroup());
        });
        BrokerStats stats = new BrokerStats(clock, sink);
        stats.traffic().register(sink);
        stats.events().register(sink);
        runtime = new BrokerRuntime(config, clock, scheduler, metadata, consumers, producers, stats,
                controllerMode == null ? AckGate.OPEN : controllerMode.ackGate(), load,
                new AtomicLong(config.identity().brokerId()), live, sink);

        StoreBinding store = storeFactory.open(runtime);
        shutdown.at(ShutdownSequence.Step.STORE, store);
        storeOpen.set(true);

        BrokerIdentityConfig identity = config.identity();
        // The ACL file's reload runs on the scheduler and stops with it.
        Optional<AclService> acl = AccessControl.open(config.acl(), scheduler);
        aclService = acl.orElse(null);
        RequestCheck check = acl.map(AclService::requestCheck).orElse(RequestCheck.NONE);
        RemotingServer remoting = new RemotingServer(config.remoting().serverConfig(identity.ip1(),
                identity.listenPort()), serverTls);
        remoting.setRequestCheck(check);
        RpcObserver rpcLatency = new RpcLatencyMetrics(sink);
        remoting.setRpcObserver(rpcLatency);
        BrokerExecutors executors = new BrokerExecutors(remoting, config.executors());
        shutdown.at(ShutdownSequence.Step.EXECUTORS, executors);
        registerBuiltInProcessors(executors, store);
        ExecutorQueueProbe queues = ExecutorQueueProbe.of(executors.executors());
        load.sendQueue(() -> queues.queueSize(ExecutorKind.SEND));
        new BrokerGauges(runtime, store.queueStats(), queues, store::role).register(sink);
        new ConsumerLagGauges(runtime, store.queueStats()).register(sink);
        store.registerProcessors(executors);
        remoting.addChannelCloseListener(channel -> {
            consumers.channelClosed(channel);
            producers.channelClosed(channel);
        });
        shutdown.at(ShutdownSequence.Step.SERVER, remoting);
        server = remoting.start();
        startVipServer(identity, executors, consumers, producers, check, serverTls, rpcLatency);

        RemotingClient client = new RemotingClient(RemotingClientConfig.defaults(), clientTls);
        client.setOutgoingRequestHook(AccessControl.outgoingHook(config.acl()));
        shutdown.at(ShutdownSequence.Step.CLIENT, client);
        MasterListener masters = controllerMode == null ? store::masterChanged : controllerMode::masterNamed;
        NameServerRegistrationAgent agent = new NameServerRegistrationAgent(new RegistrationTarget(
                identity.clusterName(), identity.brokerName(), identity.brokerId(), brokerAddr(),
                identity.haServerAddr(), identity.permission()), config.nameServer(), metadata.topics(), client,
                scheduler, masters);
        store.messageStore().ifPresent(messages -> messages.addWritabilityListener(agent::storeWritable));
        shutdown.at(ShutdownSequence.Step.UNREGISTER, () -> agent.unregisterAll(Duration.ofSeconds(3)));
        shutdown.at(ShutdownSequence.Step.REGISTRATION, agent);
        registration = agent;
        live.addListener(changed -> {
            int permission = changed.identity().permission();
            RegistrationTarget now = agent.target();
            if (now.permission() != permission) {
                agent.retarget(now.withPermission(permission));
                // RocketMQ registers again at once so that routes show the new permission; in controller
                // mode the registration runs only while the role hooks allow it, so the next one carries it.
                if (controllerMode == null) {
                    agent.registerAll();
                }
            }
        });
        Supplier<Optional<String>> masterAddress;
        if (controllerMode == null) {
            agent.start();
            masterAddress = agent::masterAddr;
        } else {
            // The controllers name the role first; the agent's role hooks start the registration.
            MessageStore messages = store.messageStore().orElseThrow(() -> new IllegalStateException(
                    "enableControllerMode=true needs a message store"));
            shutdown.at(ShutdownSequence.Step.CONTROLLER, controllerMode);
            ControllerRoleAgent roles = controllerMode.start(messages, brokerAddr(), agent, metadata.topics(), clock,
                    runtime.registeredId());
            executors.register(ExecutorKind.ADMIN, RequestProcessor.sync(new ControllerModeProcessor(roles, messages,
                    identity.clusterName(), identity.brokerName())), ControllerModeProcessor.CODES);
            masterAddress = controllerMode::masterAddress;
        }
        if (controllerMode != null || SlaveMetadataSyncAgent.appliesTo(identity)) {
            // The sync copies only while the store is a replica; a master has nothing to copy from.
            SlaveMetadataSyncAgent sync = new SlaveMetadataSyncAgent(metadata, client,
                    () -> store.role().master() ? Optional.empty() : masterAddress.get(),
                    controllerMode == null ? SlaveSyncSettings.defaults() : SlaveSyncSettings.controllerMode());
            shutdown.at(ShutdownSequence.Step.SLAVE_SYNC, sync);
            sync.start();
        }

        long flushPeriod = config.consume().flushConsumerOffsetIntervalMillis();
        scheduler.scheduleAtFixedRate(() -> guarded("persist offsets", metadata::persist), flushPeriod, flushPeriod,
                TimeUnit.MILLISECONDS);
        long expiry = config.consume().channelExpiredTimeoutMillis();
        scheduler.scheduleAtFixedRate(() -> guarded("expire clients", () -> {
            consumers.expire(expiry);
            producers.expire(expiry);
        }), CLIENT_SCAN_PERIOD_MILLIS, CLIENT_SCAN_PERIOD_MILLIS, TimeUnit.MILLISECONDS);
        LOG.info("broker {} of cluster {} (id {}, {}) started on {}", identity.brokerName(), identity.clusterName(),
                identity.brokerId(), identity.role(), brokerAddr());
    }

    /**
     * RocketMQ's brokers also listen on {@code listenPort - 2} (the "VIP channel"); stock slaves fetch their
     * master's topics, offsets and groups there. modmq serves the same processors on {@code vipListenPort}
     * (default {@code listenPort - 2}) when the port is free; without it every client still works, only a
     * stock slave's metadata sync fails.
     */
    private void startVipServer(BrokerIdentityConfig identity, BrokerExecutors executors,
                                ConsumerGroupRegistry consumers, ProducerRegistry producers, RequestCheck check,
                                ServerTls tls, RpcObserver rpcLatency) {
        int port = identity.vipListenPort();
        if (port == 0 || port == identity.listenPort() || port == identity.haListenPort()) {
            return;
        }
        RemotingServer vip = new RemotingServer(config.remoting().serverConfig(identity.ip1(), port), tls);
        vip.setRequestCheck(check);
        vip.setRpcObserver(rpcLatency);
        vip.addChannelCloseListener(channel -> {
            consumers.channelClosed(channel);
            producers.channelClosed(channel);
        });
        executors.alsoOn(vip);
        try {
            vip.start();
            shutdown.at(ShutdownSequence.Step.VIP_SERVER, vip);
        } catch (RuntimeException e) {
            vip.close();
            LOG.warn("VIP port {}:{} (listenPort - 2) not served: {}; stock slaves of this master cannot sync "
                    + "metadata", identity.ip1(), port, e.getMessage());
        }
    }

    private void registerBuiltInProcessors(BrokerExecutors executors, StoreBinding store) {
        BrokerRuntime rt = runtime;
        BrokerMetadata metadata = rt.metadata();
        executors.register(ExecutorKind.CLIENT_MANAGE, RequestProcessor.sync(
                new ClientManageProcessor(metadata, rt.consumers(), rt.producers())), ClientManageProcessor.CODES);
        executors.register(ExecutorKind.CONSUMER_MANAGE, RequestProcessor.sync(
                new ConsumerManageProcessor(metadata, rt.consumers(), store.queueOffsets(),
                        () -> !store.role().master())),
                ConsumerManageProcessor.CODES);
        executors.register(ExecutorKind.ADMIN, RequestProcessor.sync(
                new TopicAdminProcessor(config.identity(), metadata, store)), TopicAdminProcessor.CODES);
        executors.register(ExecutorKind.ADMIN, RequestProcessor.sync(
                new GroupAdminProcessor(metadata, rt.consumers(), rt.producers())), GroupAdminProcessor.CODES);
        executors.register(ExecutorKind.ADMIN, RequestProcessor.sync(
                new BrokerAdminProcessor(config, metadata, DataVersion.initial(clock))), BrokerAdminProcessor.CODES);
        AdminProcessors.register(executors, new AdminContext(rt, store.queueStats(), rt.stats(),
                ExecutorQueueProbe.of(executors.executors()), this::brokerAddr));
    }

    /** The bound main port. @throws IllegalStateException before start */
    public int port() {
        RemotingServer s = server;
        if (s == null) {
            throw new IllegalStateException("broker not started");
        }
        return s.port();
    }

    /** {@code brokerIP1:port}, the address registered with the name servers. */
    public String brokerAddr() {
        return config.identity().brokerAddr(port());
    }

    /** The shared runtime (metadata, registries). @throws IllegalStateException before start */
    BrokerRuntime runtime() {
        BrokerRuntime rt = runtime;
        if (rt == null) {
            throw new IllegalStateException("broker not started");
        }
        return rt;
    }

    /** The bound port of {@code /metrics}, once started with {@code metricsExporterType=PROM}. */
    public OptionalInt metricsPort() {
        MetricsEndpoint endpoint = metrics;
        return endpoint == null ? OptionalInt.empty() : endpoint.port();
    }

    /** RocketMQ's labels of every broker figure: {@code cluster}, {@code node_type}, {@code node_id} (brokerName). */
    static Map<String, String> nodeLabels(BrokerConfig config) {
        return Map.of("cluster", config.identity().clusterName(), "node_type", "broker",
                "node_id", config.identity().brokerName());
    }

    /** The ACL of this broker, once started with {@code aclEnable=true}. */
    Optional<AclService> acl() {
        return Optional.ofNullable(aclService);
    }

    /** The registration agent, once started. */
    Optional<NameServerRegistrationAgent> registration() {
        return Optional.ofNullable(registration);
    }

    /**
     * Stops the broker in the order described on the class; keeps going after a failure and throws
     * the first one with the others suppressed. Idempotent.
     */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        try {
            shutdown.run();
        } finally {
            LOG.info("broker {} stopped", config.identity().brokerName());
        }
    }

    private static void guarded(String what, Runnable task) {
        try {
            task.run();
        } catch (RuntimeException e) {
            LOG.warn("periodic task '{}' failed", what, e);
        }
    }

    private static ScheduledExecutorService newScheduler() {
        AtomicInteger counter = new AtomicInteger();
        ScheduledThreadPoolExecutor scheduler = new ScheduledThreadPoolExecutor(2, runnable -> {
            Thread thread = new Thread(runnable, "BrokerScheduler-" + counter.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        });
        // Plugins put one timeout per waiting send here and cancel it on completion; without this the
        // cancelled tasks stay queued until their deadline (tens of thousands at high send rates).
        scheduler.setRemoveOnCancelPolicy(true);
        return scheduler;
    }
}
