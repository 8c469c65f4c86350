package org.modmq.namesrv;

import java.time.Clock;
import java.util.Objects;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.modmq.acl.AclService;
import org.modmq.namesrv.kv.KvConfigStore;
import org.modmq.namesrv.processor.AdminTopicProcessor;
import org.modmq.namesrv.processor.BrokerRequestProcessor;
import org.modmq.namesrv.processor.KvConfigProcessor;
import org.modmq.namesrv.processor.NamesrvConfigProcessor;
import org.modmq.namesrv.processor.NamesrvSettings;
import org.modmq.namesrv.processor.RouteRequestProcessor;
import org.modmq.namesrv.processor.TopicListProcessor;
import org.modmq.namesrv.route.BrokerExpiryAgent;
import org.modmq.namesrv.route.RouteTable;
import org.modmq.remoting.netty.ProcessorExecutors;
import org.modmq.remoting.netty.RemotingChannel;
import org.modmq.remoting.netty.RemotingServer;
import org.modmq.remoting.netty.RpcObserver;
import org.modmq.remoting.netty.ServerTls;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A running name server: the remoting server with the name-server processors, the route table, the
 * KV store and the periodic expiry scan. Use it in-process (tests, the standalone distribution) or
 * through {@link NamesrvStartup}.
 *
 * <pre>{@code
 * try (NamesrvServer namesrv = new NamesrvServer(NamesrvConfig.defaults().withListenPort(0)).start()) {
 *     String namesrvAddr = namesrv.address();   // "127.0.0.1:<port>"
 *     ...
 * }
 * }</pre>
 *
 * <p>Life cycle: construct, {@link #start()} once, {@link #close()} (idempotent; also valid without
 * start). The server owns its threads and releases all of them on close. Threading: all methods are
 * thread-safe.
 */
public final class NamesrvServer implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(NamesrvServer.class);

    private enum State { NEW, STARTED, CLOSED }

    private final NamesrvConfig config;
    private final RouteTable routes;
    private final RemotingServer server;
    private final ExecutorService defaultExecutor;
    private final ExecutorService routeExecutor;
    private final ScheduledExecutorService scheduler;
    private final BrokerExpiryAgent expiryAgent;
    private final AclService acl;
    private final AtomicReference<State> state = new AtomicReference<>(State.NEW);

    /** A server on the system clock. */
    public NamesrvServer(NamesrvConfig config) {
        this(config, Clock.systemUTC());
    }

    /**
     * @param config the settings
     * @param clock  time source for broker liveness
     * @throws java.io.UncheckedIOException if the configured KV file cannot be read
     * @throws org.modmq.api.config.ConfigException with {@code aclEnable=true}, if the ACL file cannot be
     *     read or does not parse
     */
    public NamesrvServer(NamesrvConfig config, Clock clock) {
        this.config = Objects.requireNonNull(config, "config");
        Objects.requireNonNull(clock, "clock");
        this.routes = new RouteTable(clock, config.brokerChannelExpiredTime(), config.deleteTopicWithBrokerRegistration());
        KvConfigStore kv = new KvConfigStore(config.kvConfigPath());
        NamesrvSettings settings = new NamesrvSettings(config.asProperties());
        this.acl = config.aclEnable() ? AclService.load(config.aclFile()) : null;
        this.server = new RemotingServer(config.remoting().serverConfig(config.bindAddress(), config.listenPort()),
                ServerTls.create(config.tls()));
        if (acl != null) {
            server.setRequestCheck(acl.requestCheck());
        }
        this.defaultExecutor = ProcessorExecutors.bounded("NamesrvDefault", 4, 10_000);
        this.routeExecutor = ProcessorExecutors.bounded("NamesrvRoute", 4, 10_000);
        this.scheduler = Executors.newSingleThreadScheduledExecutor(runnable -> {
            Thread thread = new Thread(runnable, "NamesrvScheduler");
            thread.setDaemon(true);
            return thread;
        });
        this.expiryAgent = new BrokerExpiryAgent(routes, channel -> {
            if (channel instanceof RemotingChannel remoting) {
                remoting.close();
            }
        });
        new BrokerRequestProcessor(routes, kv, config.limits()).registerOn(server, defaultExecutor);
        new RouteRequestProcessor(routes, kv, settings).registerOn(server, routeExecutor);
        new TopicListProcessor(routes, settings).registerOn(server, defaultExecutor);
        new AdminTopicProcessor(routes, config.limits()).registerOn(server, defaultExecutor);
        new KvConfigProcessor(kv, config.limits()).registerOn(server, defaultExecutor);
        new NamesrvConfigProcessor(settings).registerOn(server, defaultExecutor);
        server.addChannelCloseListener(this::onChannelClosed);
    }

    /**
     * Binds the listen address and schedules the expiry scan every
     * {@link NamesrvConfig#scanNotActiveBrokerInterval()} ms.
     *
     * @return this
     * @throws IllegalStateException if already started or closed
     * @throws org.modmq.remoting.netty.RemotingConnectException if the address cannot be bound
     */
    public NamesrvServer start() {
        if (!state.compareAndSet(State.NEW, State.STARTED)) {
            throw new IllegalStateException("name server is " + state.get());
        }
        server.start();
        long interval = config.scanNotActiveBrokerInterval();
        scheduler.scheduleWithFixedDelay(this::scan, interval, interval, TimeUnit.MILLISECONDS);
        if (acl != null) {
            acl.scheduleReload(scheduler, AclService.DEFAULT_RELOAD_PERIOD);
        }
        LOG.info("name server listening on {}", address());
        return this;
    }

    /**
     * @return the bound port (the real one when {@code listenPort} is 0)
     * @throws IllegalStateException before {@link #start()}
     */
    public int port() {
        return server.port();
    }

    /** @return {@code bindAddress:port}, the value brokers and clients use as {@code namesrvAddr} */
    public String address() {
        return config.bindAddress() + ":" + port();
    }

    /**
     * Sets who is told of every answer the name server writes (RocketMQ's {@code rocketmq_rpc_latency}
     * is {@link org.modmq.remoting.netty.RpcLatencyMetrics}); valid before and after start.
     */
    public void setRpcObserver(RpcObserver observer) {
        server.setRpcObserver(observer);
    }

    /** @return the settings this server started with */
    public NamesrvConfig config() {
        return config;
    }

    /** @return the number of live brokers */
    public int liveBrokerCount() {
        return routes.liveBrokerCount();
    }

    /** @return the number of topics with queue data on some broker */
    public int topicCount() {
        return routes.allTopics().topicList().size();
    }

    private void scan() {
        try {
            int removed = expiryAgent.doWork();
            if (removed > 0) {
                LOG.info("expiry scan removed {} broker(s)", removed);
            }
        } catch (RuntimeException e) {
            LOG.error("expiry scan failed; it runs again in {} ms", config.scanNotActiveBrokerInterval(), e);
        }
    }

    private void onChannelClosed(RemotingChannel channel) {
        try {
            scheduler.execute(() -> routes.removeBrokersOfChannel(channel));
        } catch (RejectedExecutionException e) {
            LOG.debug("name server closing; brokers of {} not removed", channel.id(), e);
        }
    }

    /** Stops accepting, closes every connection and stops the scan and the processor threads. Idempotent. */
    @Override
    public void close() {
        State previous = state.getAndSet(State.CLOSED);
        if (previous == State.CLOSED) {
            return;
        }
        try {
            server.close();
        } finally {
            if (acl != null) {
                acl.close();
            }
            scheduler.shutdownNow();
            defaultExecutor.shutdownNow();
            routeExecutor.shutdownNow();
            LOG.info("name server stopped");
        }
    }
}
