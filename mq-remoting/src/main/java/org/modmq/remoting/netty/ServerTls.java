package org.modmq.remoting.netty;

import io.netty.buffer.ByteBufAllocator;
import io.netty.channel.Channel;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslHandler;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.LongSupplier;
import javax.net.ssl.SSLEngine;
import org.modmq.api.config.ConfigException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The TLS side of a server port: its {@link TlsMode} and, when a certificate is configured, the context
 * its TLS connections use. {@link RemotingServer} puts a {@link TlsSniffHandler} first on every
 * connection; a non-remoting port (HA) may take {@link #newEngine} engines for its own pipeline.
 * With {@code tlsReloadIntervalSeconds} above 0 (the default) it has a {@link TlsReloadAgent} that puts a
 * new context in force when the certificate files change; each connection keeps the context it was
 * accepted with. Thread-safe.
 */
public final class ServerTls {

    private static final Logger LOG = LoggerFactory.getLogger(ServerTls.class);
    private static final ServerTls DISABLED = new ServerTls(TlsMode.DISABLED, null, null);

    private final TlsMode mode;
    private final AtomicReference<SslContext> context;
    private final AtomicLong lastRefusalLog = new AtomicLong(Long.MIN_VALUE);
    private final TlsReloadAgent reload;

    /** @param reload builds the agent that replaces the context, or null for none */
    private ServerTls(TlsMode mode, SslContext context,
                      Function<Consumer<SslContext>, TlsReloadAgent> reload) {
        this.mode = mode;
        this.context = new AtomicReference<>(context);
        this.reload = reload == null ? null : reload.apply(this.context::set);
    }

    /** Plain TCP only; a TLS handshake is refused. */
    public static ServerTls disabled() {
        return DISABLED;
    }

    /**
     * The server side that {@code settings} describe: disabled is plain; permissive without a
     * certificate serves plain connections and refuses TLS ones (logged at start); enforcing needs one.
     *
     * @throws ConfigException when enforcing has no certificate, or a certificate key is bad
     */
    public static ServerTls create(TlsSettings settings) {
        return create(settings, () -> System.nanoTime() / 1_000_000);
    }

    /**
     * As {@link #create(TlsSettings)}, measuring {@code tlsReloadIntervalSeconds} on {@code monotonicMillis}
     * (tests pass a manual clock and step {@link #reloadAgent()} themselves).
     */
    public static ServerTls create(TlsSettings settings, LongSupplier monotonicMillis) {
        Objects.requireNonNull(settings, "settings");
        Objects.requireNonNull(monotonicMillis, "monotonicMillis");
        if (settings.mode() == TlsMode.DISABLED) {
            return DISABLED;
        }
        // Digests first: a file replaced while the context is built is then seen as changed on the next look.
        List<String> loadedFrom = TlsReloadAgent.digests(TlsReloadAgent.watched(settings));
        SslContext context = TlsContexts.server(settings);
        if (context == null && settings.mode() == TlsMode.ENFORCING) {
            throw new ConfigException(TlsSettings.SERVER_MODE + "=enforcing needs " + TlsSettings.SERVER_CERT_PATH
                    + " and " + TlsSettings.SERVER_KEY_PATH);
        }
        boolean reloads = context != null && settings.reloadIntervalSeconds() > 0;
        return new ServerTls(settings.mode(), context, !reloads ? null
                : install -> new TlsReloadAgent(settings, loadedFrom, install, monotonicMillis));
    }

    /** @return the agent that reloads the certificate files, when there are files and reloading is on */
    public Optional<TlsReloadAgent> reloadAgent() {
        return Optional.ofNullable(reload);
    }

    /** @return the mode */
    public TlsMode mode() {
        return mode;
    }

    /** @return whether TLS connections can be served (a certificate is configured and the mode allows it) */
    public boolean offersTls() {
        return context.get() != null;
    }

    /**
     * A server-mode engine for one connection, configured as the context says (client authentication
     * included), for ports that wrap it in their own {@code SslHandler}.
     *
     * @throws IllegalStateException when no TLS is offered
     */
    public SSLEngine newEngine(ByteBufAllocator allocator) {
        SslContext current = context.get();
        if (current == null) {
            throw new IllegalStateException("no TLS server context: " + TlsSettings.SERVER_CERT_PATH + " is not set");
        }
        return current.newEngine(allocator);
    }

    SslHandler newHandler(ByteBufAllocator allocator) {
        return context.get().newHandler(allocator);
    }

    /** Logs a refused connection, at most once a second as a warning (a flood of them stays cheap). */
    void refused(Channel channel, String why) {
        long now = System.nanoTime();
        long last = lastRefusalLog.get();
        if ((last == Long.MIN_VALUE || now - last >= TimeUnit.SECONDS.toNanos(1)) && lastRefusalLog.compareAndSet(last, now)) {
            LOG.warn("closing connection from {}: {}", channel.remoteAddress(), why);
        } else {
            LOG.debug("closing connection from {}: {}", channel.remoteAddress(), why);
        }
    }

    @Override
    public String toString() {
        return "tls " + mode.configName() + (mode != TlsMode.DISABLED && context.get() == null ? " (no certificate)"
                : reload != null ? " (certificate files checked every " + reload.intervalSeconds() + " s)" : "");
    }
}
