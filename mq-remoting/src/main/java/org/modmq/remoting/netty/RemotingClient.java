package org.modmq.remoting.netty;

import io.netty.bootstrap.Bootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.handler.ssl.SslHandler;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.modmq.remoting.codec.FrameMemoryBudget;
import org.modmq.remoting.protocol.RemotingCommand;

/**
 * A remoting client: one cached connection per {@code host:port} address, opened on first use and
 * dropped from the cache when it closes. Requests from the server (e.g. broker to client) are run by
 * registered processors, as in {@link RemotingServer}.
 *
 * <p>Threading: all methods are thread-safe and never block, except {@link #close()}.
 */
public final class RemotingClient implements AutoCloseable {

    private final RemotingClientConfig config;
    private final ClientTls tls;
    private final ResponseTable responses = new ResponseTable();
    private final CommandDispatcher dispatcher = new CommandDispatcher();
    private final RemotingHandler handler = new RemotingHandler(responses, dispatcher);
    private final Map<String, CompletableFuture<NettyRemotingChannel>> channels = new ConcurrentHashMap<>();
    private final EventLoopGroup group;
    private final Bootstrap bootstrap;
    private volatile boolean closed;
    private volatile OutgoingRequestHook outgoingHook = OutgoingRequestHook.NONE;

    /** A plain client; starts the I/O threads. */
    public RemotingClient(RemotingClientConfig config) {
        this(config, ClientTls.plain());
    }

    /**
     * @param config the settings; starts the I/O threads
     * @param tls plain or TLS for every connection; with TLS a connection is ready once its handshake is done
     */
    public RemotingClient(RemotingClientConfig config, ClientTls tls) {
        this.config = Objects.requireNonNull(config, "config");
        this.tls = Objects.requireNonNull(tls, "tls");
        this.group = TransportProbe.newGroup("remoting-client", config.ioThreads());
        this.bootstrap = new Bootstrap()
                .group(group)
                .channel(TransportProbe.channelClass())
                .option(ChannelOption.TCP_NODELAY, true)
                .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, (int) config.connectTimeout().toMillis());
    }

    /** The pipeline of one connection; TLS needs the peer's host and port (SNI). */
    private RemotingChannelInitializer initializer(String host, int port) {
        return new RemotingChannelInitializer(config.maxFrameLength(), FrameMemoryBudget.unbounded(), 0,
                config.idleSeconds(), handler, channel -> true, !tls.enabled() ? null : channel -> {
                    SslHandler ssl = tls.newHandler(channel.alloc(), host, port);
                    ssl.setHandshakeTimeoutMillis(config.connectTimeout().toMillis());
                    return ssl;
                });
    }

    /** Registers the processor for requests of one code sent by servers. */
    public void registerProcessor(int requestCode, RequestProcessor processor, ExecutorService executor) {
        dispatcher.register(requestCode, processor, executor);
    }

    /** Registers the processor for server requests of every code without its own processor. */
    public void registerDefaultProcessor(RequestProcessor processor, ExecutorService executor) {
        dispatcher.registerDefault(processor, executor);
    }

    /**
     * Sets the hook run on every request this client sends (e.g. to sign it), replacing the previous
     * one; the default sends requests unchanged.
     */
    public void setOutgoingRequestHook(OutgoingRequestHook hook) {
        this.outgoingHook = Objects.requireNonNull(hook, "hook");
    }

    /** Adds a listener called once per closed connection, on an I/O thread; it must not block. */
    public void addChannelCloseListener(Consumer<RemotingChannel> listener) {
        handler.addCloseListener(Objects.requireNonNull(listener, "listener"));
    }

    /**
     * Returns the cached connection to {@code address} or opens one.
     *
     * @param address {@code host:port}
     * @return the connection, or fails with {@link RemotingConnectException}
     */
    public CompletableFuture<RemotingChannel> connect(String address) {
        Objects.requireNonNull(address, "address");
        if (closed) {
            return CompletableFuture.failedFuture(new RemotingConnectException("client is closed", null));
        }
        CompletableFuture<NettyRemotingChannel> cached = channels.computeIfAbsent(address, this::open);
        if (failedOrClosed(cached)) {
            channels.remove(address, cached);
            cached = channels.computeIfAbsent(address, this::open);
        }
        return cached.thenApply(channel -> channel);
    }

    /**
     * Whether a cached connection is no use: its connect failed, or it closed since. Never throws: a
     * connect refused at once may fail the future between any two looks at it (getNow would throw then).
     */
    private static boolean failedOrClosed(CompletableFuture<NettyRemotingChannel> cached) {
        if (!cached.isDone()) {
            return false;
        }
        if (cached.isCompletedExceptionally()) {
            return true;
        }
        NettyRemotingChannel channel = cached.join();
        return !channel.isActive();
    }

    private CompletableFuture<NettyRemotingChannel> open(String address) {
        CompletableFuture<NettyRemotingChannel> result = new CompletableFuture<>();
        int colon = address.lastIndexOf(':');
        int port;
        try {
            port = Integer.parseInt(address.substring(colon + 1));
        } catch (NumberFormatException | IndexOutOfBoundsException e) {
            result.completeExceptionally(new RemotingConnectException("not a host:port address: '" + address + "'", e));
            return result;
        }
        String host = address.substring(0, Math.max(colon, 0)).replace("[", "").replace("]", "");
        bootstrap.clone().handler(initializer(host, port)).connect(host, port).addListener(connected -> {
            if (!connected.isSuccess()) {
                channels.remove(address, result);
                result.completeExceptionally(new RemotingConnectException("cannot connect to " + address, connected.cause()));
                return;
            }
            Channel channel = ((io.netty.channel.ChannelFuture) connected).channel();
            channel.closeFuture().addListener(done -> channels.remove(address, result));
            SslHandler ssl = tls.enabled() ? channel.pipeline().get(SslHandler.class) : null;
            if (ssl == null) {
                result.complete(NettyRemotingChannel.of(channel, responses));
                return;
            }
            ssl.handshakeFuture().addListener(handshake -> {
                if (handshake.isSuccess()) {
                    result.complete(NettyRemotingChannel.of(channel, responses));
                } else {
                    channels.remove(address, result);
                    channel.close();
                    result.completeExceptionally(new RemotingConnectException("TLS handshake with " + address
                            + " failed: " + handshake.cause(), handshake.cause()));
                }
            });
        });
        return result;
    }

    /** @return whether this client's connections use TLS */
    public boolean usesTls() {
        return tls.enabled();
    }

    /**
     * Sends a request to {@code address} and waits for its response. The timeout counts from when
     * the connection is ready; connecting is bounded by the connect timeout. Ownership of a
     * {@code ByteBuf} body passes to the client (released also when connecting fails).
     *
     * @return the response (any code), or fails with {@link RemotingConnectException},
     *     {@link RemotingSendException} or {@link RemotingTimeoutException}
     */
    public CompletableFuture<RemotingCommand> invoke(String address, RemotingCommand request, Duration timeout) {
        Objects.requireNonNull(request, "request");
        Objects.requireNonNull(timeout, "timeout");
        RuntimeException refused = runHook(address, request);
        if (refused != null) {
            return CompletableFuture.failedFuture(refused);
        }
        return connect(address).whenComplete((channel, error) -> {
            if (error != null) {
                request.releaseBody();
            }
        }).thenCompose(channel -> channel.invoke(request, timeout));
    }

    /**
     * Sends a one-way request to {@code address}.
     *
     * @return completes when written, or fails with {@link RemotingConnectException} or
     *     {@link RemotingSendException}
     */
    public CompletableFuture<Void> invokeOneway(String address, RemotingCommand request) {
        Objects.requireNonNull(request, "request");
        RuntimeException refused = runHook(address, request);
        if (refused != null) {
            return CompletableFuture.failedFuture(refused);
        }
        return connect(address).whenComplete((channel, error) -> {
            if (error != null) {
                request.releaseBody();
            }
        }).thenCompose(channel -> channel.sendOneway(request));
    }

    /** Runs the outgoing hook; on failure releases the request's body and returns the failure. */
    private RuntimeException runHook(String address, RemotingCommand request) {
        try {
            outgoingHook.beforeSend(address, request);
            return null;
        } catch (RuntimeException e) {
            request.releaseBody();
            return e;
        }
    }

    /** @return the number of invocations awaiting a response */
    public int pendingRequests() {
        return responses.size();
    }

    /** Closes the cached connection to {@code address}, if any; the next call reconnects. */
    public void closeChannel(String address) {
        CompletableFuture<NettyRemotingChannel> cached = channels.remove(address);
        if (cached != null) {
            cached.thenAccept(NettyRemotingChannel::close);
        }
    }

    /** Closes every connection (pending invocations fail) and stops the I/O threads. Idempotent. */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        channels.values().forEach(cached -> cached.thenAccept(NettyRemotingChannel::close));
        channels.clear();
        group.shutdownGracefully(0, 2, TimeUnit.SECONDS).awaitUninterruptibly(5, TimeUnit.SECONDS);
    }
}
