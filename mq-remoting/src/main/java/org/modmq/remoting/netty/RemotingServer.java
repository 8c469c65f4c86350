package org.modmq.remoting.netty;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.group.ChannelGroup;
import io.netty.channel.group.DefaultChannelGroup;
import io.netty.util.concurrent.GlobalEventExecutor;
import java.net.InetSocketAddress;
import java.util.Objects;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import org.modmq.remoting.codec.FrameMemoryBudget;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A remoting server: accepts connections, decodes frames of either header type, runs request
 * processors on their bounded executors and answers in the serialize type of each request.
 *
 * <p>Life cycle: construct, register processors and listeners, {@link #start()}, and finally
 * {@link #close()}. Registering after start is allowed; requests for codes not (yet) registered
 * are answered {@code REQUEST_CODE_NOT_SUPPORTED}. The executors passed in stay owned by the caller,
 * who shuts them down after closing the server.
 *
 * <p>Threading: all methods are thread-safe.
 */
public final class RemotingServer implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(RemotingServer.class);

    private final RemotingServerConfig config;
    private final ServerTls tls;
    private final ResponseTable responses = new ResponseTable();
    private final CommandDispatcher dispatcher = new CommandDispatcher();
    private final RemotingHandler handler = new RemotingHandler(responses, dispatcher);
    private final ChannelGroup connections = new DefaultChannelGroup("remoting-connections", GlobalEventExecutor.INSTANCE);
    private final Object lifecycle = new Object();
    private final FrameMemoryBudget frameBudget;
    private final AtomicLong lastRefusalLog = new AtomicLong(Long.MIN_VALUE);
    private EventLoopGroup bossGroup;
    private EventLoopGroup ioGroup;
    private Channel serverChannel;
    private volatile InetSocketAddress boundAddress;
    private boolean closed;

    /** A plain server ({@link ServerTls#disabled()}); nothing is bound until {@link #start()}. */
    public RemotingServer(RemotingServerConfig config) {
        this(config, ServerTls.disabled());
    }

    /**
     * @param config the settings; nothing is bound until {@link #start()}
     * @param tls what the port does with TLS (see {@link TlsMode})
     */
    public RemotingServer(RemotingServerConfig config, ServerTls tls) {
        this.config = Objects.requireNonNull(config, "config");
        this.tls = Objects.requireNonNull(tls, "tls");
        this.frameBudget = new FrameMemoryBudget(config.maxPendingFrameBytes());
    }

    /** Admits a new connection unless {@code maxConnections} are open; a refusal is logged at most once a second. */
    private boolean admit(Channel channel) {
        if (connections.size() >= config.maxConnections()) {
            long now = System.nanoTime();
            long last = lastRefusalLog.get();
            if ((last == Long.MIN_VALUE || now - last >= TimeUnit.SECONDS.toNanos(1))
                    && lastRefusalLog.compareAndSet(last, now)) {
                LOG.warn("refusing connection from {}: {} connections open (maxConnections)",
                        channel.remoteAddress(), connections.size());
            }
            return false;
        }
        connections.add(channel);
        return true;
    }

    /** @return the bytes all connections hold in frames not yet complete */
    public long pendingFrameBytes() {
        return frameBudget.used();
    }

    /**
     * Registers the processor of one request code, replacing an earlier one.
     *
     * @param requestCode a {@link org.modmq.remoting.protocol.RequestCode}
     * @param processor the processor
     * @param executor where it runs; should be bounded (see {@link ProcessorExecutors}); a rejected
     *     execution is answered {@code SYSTEM_BUSY}
     */
    public void registerProcessor(int requestCode, RequestProcessor processor, ExecutorService executor) {
        dispatcher.register(requestCode, processor, executor);
    }

    /** Registers the processor for every code without its own processor. */
    public void registerDefaultProcessor(RequestProcessor processor, ExecutorService executor) {
        dispatcher.registerDefault(processor, executor);
    }

    /**
     * Sets the check every request passes before its processor runs (see {@link RequestCheck}),
     * replacing the previous one; the default lets everything through. Takes effect for requests
     * that have not yet started processing.
     */
    public void setRequestCheck(RequestCheck check) {
        dispatcher.requestCheck(check);
    }

    /**
     * Sets who is told of every answer written (see {@link RpcObserver}), replacing the previous one; the
     * default observes nothing.
     */
    public void setRpcObserver(RpcObserver observer) {
        dispatcher.rpcObserver(observer);
    }

    /**
     * Adds a listener called once when a client connection closes, on an I/O thread; it must not
     * block. Pending server-to-client invocations on that connection have already failed.
     */
    public void addChannelCloseListener(Consumer<RemotingChannel> listener) {
        handler.addCloseListener(Objects.requireNonNull(listener, "listener"));
    }

    /**
     * Binds the listen address and starts accepting.
     *
     * @return this
     * @throws RemotingConnectException when the address cannot be bound
     * @throws IllegalStateException when already started or closed
     */
    public RemotingServer start() {
        synchronized (lifecycle) {
            if (closed || serverChannel != null) {
                throw new IllegalStateException(closed ? "server is closed" : "server already started");
            }
            bossGroup = TransportProbe.newGroup("remoting-boss", 1);
            ioGroup = TransportProbe.newGroup("remoting-io", config.ioThreads());
            ServerBootstrap bootstrap = new ServerBootstrap()
                    .group(bossGroup, ioGroup)
                    .channel(TransportProbe.serverChannelClass())
                    .option(ChannelOption.SO_BACKLOG, 1024)
                    .option(ChannelOption.SO_REUSEADDR, true)
                    .childOption(ChannelOption.TCP_NODELAY, true)
                    .childHandler(new RemotingChannelInitializer(config.maxFrameLength(), frameBudget,
                            config.frameReceiveTimeout().toNanos(), config.idleSeconds(), handler, this::admit,
                            channel -> new TlsSniffHandler(tls)));
            ChannelFuture bind = bootstrap.bind(config.host(), config.port()).awaitUninterruptibly();
            if (!bind.isSuccess()) {
                shutdownGroups();
                throw new RemotingConnectException("cannot bind " + config.host() + ":" + config.port(), bind.cause());
            }
            serverChannel = bind.channel();
            boundAddress = (InetSocketAddress) serverChannel.localAddress();
            // The acceptor thread has time to spare: a look at two or three small files, now and then a new
            // context, delays accepting by milliseconds at most. The task ends with the group.
            tls.reloadAgent().ifPresent(agent -> bossGroup.next().scheduleWithFixedDelay(() -> reload(agent),
                    1, 1, TimeUnit.SECONDS));
            LOG.info("remoting server listening on {} ({})", serverChannel.localAddress(), tls);
            return this;
        }
    }

    private static void reload(TlsReloadAgent agent) {
        try {
            agent.doWork();
        } catch (RuntimeException e) {
            // A scheduled Netty task that throws is not run again; the certificate would never reload.
            LOG.warn("TLS certificate reload check failed; the next one runs in a second", e);
        }
    }

    /**
     * @return the bound port (the real one when the config asked for 0)
     * @throws IllegalStateException before {@link #start()}
     */
    public int port() {
        return localAddress().getPort();
    }

    /** @return the bound address; @throws IllegalStateException before {@link #start()} */
    public InetSocketAddress localAddress() {
        InetSocketAddress address = boundAddress;
        if (address == null) {
            throw new IllegalStateException("server not started");
        }
        return address;
    }

    /** @return the number of open client connections */
    public int connectionCount() {
        return connections.size();
    }

    /** @return the number of requests handed to processors whose answer is not yet written */
    public int requestsInFlight() {
        return dispatcher.inFlight();
    }

    /**
     * Graceful close: stops accepting, waits up to {@link RemotingServerConfig#shutdownGrace()} for
     * in-flight processors, then closes every connection and stops the I/O threads. Idempotent.
     */
    @Override
    public void close() {
        Channel listening;
        synchronized (lifecycle) {
            if (closed) {
                return;
            }
            closed = true;
            listening = serverChannel;
        }
        if (listening != null) {
            listening.close().awaitUninterruptibly();
        }
        if (!dispatcher.awaitIdle(config.shutdownGrace())) {
            LOG.warn("closing with {} requests still in flight after {}", dispatcher.inFlight(), config.shutdownGrace());
        }
        connections.close().awaitUninterruptibly();
        shutdownGroups();
        LOG.info("remoting server closed");
    }

    private void shutdownGroups() {
        for (EventLoopGroup group : new EventLoopGroup[] {bossGroup, ioGroup}) {
            if (group != null && !group.shutdownGracefully(0, 2, TimeUnit.SECONDS).awaitUninterruptibly(5, TimeUnit.SECONDS)) {
                LOG.warn("I/O threads did not stop within 5 s");
            }
        }
    }
}
