package org.modmq.controller;

import java.nio.file.Files;
import java.nio.file.Path;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.LongSupplier;
import org.modmq.acl.AclService;
import org.modmq.acl.ControllerAdminRequests;
import org.modmq.acl.RequestSigner;
import org.modmq.api.spi.MetricsSink;
import org.modmq.controller.core.BrokerRegistrations;
import org.modmq.controller.core.ControllerContext;
import org.modmq.controller.core.EventLog;
import org.modmq.controller.core.InactiveMasterAgent;
import org.modmq.controller.core.LeaderGate;
import org.modmq.controller.core.Leadership;
import org.modmq.controller.core.MasterElections;
import org.modmq.controller.core.ReplicaQueries;
import org.modmq.controller.core.RoleChangeNotifier;
import org.modmq.controller.core.RuntimeSettings;
import org.modmq.controller.core.WriteSequencer;
import org.modmq.controller.elect.ElectPolicy;
import org.modmq.controller.liveness.BrokerKey;
import org.modmq.controller.liveness.BrokerLiveness;
import org.modmq.controller.liveness.LeaseRule;
import org.modmq.controller.liveness.Ticker;
import org.modmq.controller.processor.ControllerRequestProcessor;
import org.modmq.controller.processor.NodeRequestProcessor;
import org.modmq.controller.raft.RaftSettings;
import org.modmq.controller.raft.RatisEventLog;
import org.modmq.remoting.netty.ProcessorExecutors;
import org.modmq.remoting.netty.RemotingChannel;
import org.modmq.remoting.netty.ClientTls;
import org.modmq.remoting.netty.RemotingClient;
import org.modmq.remoting.netty.RemotingClientConfig;
import org.modmq.remoting.netty.RemotingServer;
import org.modmq.remoting.netty.ServerTls;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One running controller peer: the remoting server on its {@code controllerDLegerPeers} address, the
 * Ratis peer on its {@code controllerRaftPeers} address, node-local broker liveness, and the leader's
 * watch over inactive masters. With {@code aclEnable=true} ({@link ControllerAcl}) every request on the
 * remoting port must be signed by an account of the ACL file, and the operator's changes need an admin
 * ({@link ControllerAdminRequests}); the file is re-read when it changes.
 *
 * <pre>{@code
 * try (ControllerServer controller = new ControllerServer(ControllerConfig.load(file, LOG::warn)).start()) {
 *     String address = controller.address();   // what brokers name in controllerAddr
 * }
 * }</pre>
 *
 * <p>Life cycle: construct, {@link #start()} once, {@link #close()} (idempotent; also valid without
 * start). It owns its threads, sockets and the Raft storage files' handles, and releases all of them on
 * close. Threading: all methods are thread-safe.
 */
public final class ControllerServer implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(ControllerServer.class);
    /** Brokers silent for this long beyond their timeout are forgotten. */
    private static final long FORGET_AFTER_MILLIS = 60_000;

    private enum State { NEW, STARTED, CLOSED }

    private final ControllerConfig config;
    private final RuntimeSettings settings;
    private final BrokerLiveness liveness;
    private final RatisEventLog log;
    private final RemotingServer server;
    private final RemotingClient client;
    private final ThreadPoolExecutor requestExecutor;
    private final ScheduledExecutorService scheduler;
    private final InactiveMasterAgent agent;
    private final RoleChangeNotifier notifier;
    private final ControllerContext context;
    private final MasterElections elections;
    private final AclService acl;
    private final AtomicReference<State> state = new AtomicReference<>(State.NEW);
    private ScheduledFuture<?> scan;
    private long scanInterval;

    /** A peer on the JVM's monotonic clock. */
    public ControllerServer(ControllerConfig config) {
        this(config, Ticker.SYSTEM::millis);
    }

    /**
     * @param config          the settings
     * @param monotonicMillis the clock heartbeats and leases are measured on (only differences count)
     * @throws org.modmq.api.config.ConfigException when a TLS file, or with {@code aclEnable=true} the ACL
     *     file, cannot be read or does not parse
     */
    public ControllerServer(ControllerConfig config, LongSupplier monotonicMillis) {
        this.config = Objects.requireNonNull(config, "config");
        // Certificates first: a bad key file fails before the Raft log is opened.
        ServerTls serverTls = ServerTls.create(config.tls());
        ClientTls clientTls = ClientTls.create(config.tls());
        this.acl = config.acl().enabled() ? AclService.load(config.acl().file(), ControllerAdminRequests::needsAdmin) : null;
        Ticker ticker = monotonicMillis::getAsLong;
        this.settings = new RuntimeSettings(config.enableElectUncleanMaster(), config.notifyBrokerRoleChanged(),
                config.scanNotActiveBrokerInterval(), config.electMasterMaxRetryCount());
        this.liveness = new BrokerLiveness(ticker);
        Map<String, String> remoting = new LinkedHashMap<>();
        config.peers().forEach(peer -> remoting.put(peer.id(), peer.remotingAddress()));
        LeaderGate gate = new LeaderGate(config.selfId(), remoting);
        List<RaftSettings.Member> members = config.peers().stream()
                .map(peer -> new RaftSettings.Member(peer.id(), peer.raftAddress())).toList();
        this.log = new RatisEventLog(new RaftSettings(config.group(), members, config.selfId(), config.storePath(),
                config.raftElectionTimeoutMin(), config.raftElectionTimeoutMax(), config.snapshotThreshold(),
                config.writeTimeoutMills()), ticker, leaderId -> gate.refusal(
                        new org.modmq.controller.core.Leadership(false, false, false, leaderId, 0)));
        ControllerContext context = new ControllerContext(log, liveness, gate, new WriteSequencer(), settings);
        this.context = context;
        this.client = new RemotingClient(RemotingClientConfig.defaults(), clientTls);
        if (config.acl().innerAccessKey().isPresent()) {
            // A broker with ACL on checks a role-change notice like an admin request.
            client.setOutgoingRequestHook(new RequestSigner(config.acl().innerAccessKey().get(),
                    config.acl().innerSecretKey().orElseThrow()));
        }
        RoleChangeNotifier notifier = new RoleChangeNotifier(settings,
                (change, id) -> liveness.isActive(new BrokerKey(change.clusterName(), change.brokerName(), id)),
                client::invokeOneway, client::connect,
                key -> liveness.noticeChannel(key).map(RemotingChannel.class::cast));
        ElectPolicy policy = new ElectPolicy();
        LeaseRule leaseRule = new LeaseRule(config.brokerHeartbeatTimeoutMills(), config.raftElectionTimeoutMax());
        this.notifier = notifier;
        this.elections = new MasterElections(context, policy, leaseRule, notifier);
        this.agent = new InactiveMasterAgent(context, elections, policy, leaseRule);
        ControllerPeer self = config.self();
        this.server = new RemotingServer(config.remoting().serverConfig(self.remotingHost(), self.remotingPort()),
                serverTls);
        if (acl != null) {
            server.setRequestCheck(acl.requestCheck());
        }
        this.requestExecutor = ProcessorExecutors.bounded("ControllerRequest", config.threadPoolNums(), config.queueCapacity());
        this.scheduler = Executors.newSingleThreadScheduledExecutor(runnable -> {
            Thread thread = new Thread(runnable, "ControllerAgent-" + config.selfId());
            thread.setDaemon(true);
            return thread;
        });
        new ControllerRequestProcessor(new BrokerRegistrations(context), elections, new ReplicaQueries(context))
                .registerOn(server, requestExecutor);
        new NodeRequestProcessor(log, liveness, gate, settings, config.group(), config::asProperties,
                config.brokerHeartbeatTimeoutMills()).registerOn(server, requestExecutor);
        server.addChannelCloseListener(this::onChannelClosed);
    }

    /**
     * Creates the store directory, starts the Ratis peer, binds the remoting address and starts the
     * watch over inactive masters.
     *
     * @return this
     * @throws IllegalStateException if already started or closed
     * @throws UncheckedIOException when the store or the Raft address cannot be used
     * @throws org.modmq.remoting.netty.RemotingConnectException when the remoting address cannot be bound
     */
    public ControllerServer start() {
        if (!state.compareAndSet(State.NEW, State.STARTED)) {
            throw new IllegalStateException("controller is " + state.get());
        }
        try {
            Files.createDirectories(config.storePath());
        } catch (IOException e) {
            throw new UncheckedIOException("controllerStorePath " + config.storePath() + " cannot be created: " + e, e);
        }
        log.start();
        server.start();
        scheduleScan();
        if (acl != null) {
            acl.scheduleReload(scheduler, AclService.DEFAULT_RELOAD_PERIOD);
        }
        LOG.info("controller {} of group {} serving on {} (Raft {}), peers {}", config.selfId(), config.group(), address(),
                config.self().raftAddress(), config.peers());
        return this;
    }

    private synchronized void scheduleScan() {
        if (state.get() != State.STARTED) {
            return;
        }
        scanInterval = settings.scanNotActiveBrokerInterval();
        scan = scheduler.scheduleWithFixedDelay(this::scanOnce, scanInterval, scanInterval, TimeUnit.MILLISECONDS);
    }

    private void scanOnce() {
        try {
            agent.doWork();
            liveness.expire(FORGET_AFTER_MILLIS);
            if (agent.state() == InactiveMasterAgent.State.WATCHING) {
                notifier.keepConnected(log.state().brokerSets().values(), context::alive);
            }
            if (settings.scanNotActiveBrokerInterval() != scanInterval) {
                synchronized (this) {
                    scan.cancel(false);
                    scheduleScan();
                }
            }
        } catch (RuntimeException e) {
            LOG.error("inactive-master scan failed; it runs again in {} ms", scanInterval, e);
        }
    }

    private void onChannelClosed(RemotingChannel channel) {
        List<BrokerKey> gone = liveness.onChannelClosed(channel);
        if (gone.isEmpty()) {
            return;
        }
        LOG.info("connection {} closed: {} inactive", channel, gone);
        try {
            scheduler.execute(() -> {
                try {
                    agent.doWork();
                } catch (RuntimeException e) {
                    LOG.error("inactive-master check after a closed connection failed", e);
                }
            });
        } catch (RejectedExecutionException e) {
            LOG.debug("controller closing; no check after {} closed", channel);
        }
    }

    /** @return {@code host:port} of the remoting server, what brokers name in {@code controllerAddr} */
    public String address() {
        return config.self().remotingHost() + ":" + server.port();
    }

    /** @return the settings this peer started with */
    public ControllerConfig config() {
        return config;
    }

    /** @return whether this peer is the Raft leader and serves leader-only requests */
    public boolean isServingLeader() {
        return log.leadership().mayWrite();
    }

    Leadership leadership() {
        return log.leadership();
    }

    /**
     * Reports RocketMQ's controller figures ({@code role}, {@code request_total}, {@code request_latency},
     * {@code election_total}, {@code active_broker_num}) to {@code sink}; valid before and after start.
     */
    public void reportTo(MetricsSink sink) {
        ControllerMetrics metrics = ControllerMetrics.register(Objects.requireNonNull(sink, "sink"), this);
        server.setRpcObserver(metrics);
        elections.observe(metrics);
    }

    /** @return the leader's id as this peer knows it, or null */
    public String leaderId() {
        return log.leadership().leaderId();
    }

    /** Takes a snapshot of the state now. @return its Raft log index, or -1 when nothing was applied yet */
    public long snapshotNow() {
        return log.snapshotNow();
    }

    EventLog eventLog() {
        return log;
    }

    /** @return the log index of the snapshot this peer started from, -1 when it started without one */
    public long loadedSnapshotIndex() {
        return log.loadedSnapshotIndex();
    }

    BrokerLiveness liveness() {
        return liveness;
    }

    InactiveMasterAgent agent() {
        return agent;
    }

    /** @return the ACL of the remoting port, or null when {@code aclEnable} is false (tests step its reload) */
    AclService acl() {
        return acl;
    }

    /** @return the store directory */
    public Path storePath() {
        return config.storePath();
    }

    /** Stops the watch, the remoting server, the Ratis peer and every thread. Idempotent. */
    @Override
    public void close() {
        State previous = state.getAndSet(State.CLOSED);
        if (previous == State.CLOSED) {
            return;
        }
        try {
            if (acl != null) {
                acl.close();
            }
            scheduler.shutdownNow();
            server.close();
        } finally {
            try {
                log.close();
            } finally {
                client.close();
                requestExecutor.shutdownNow();
                LOG.info("controller {} stopped", config.selfId());
            }
        }
    }
}
