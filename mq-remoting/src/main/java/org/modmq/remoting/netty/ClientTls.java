package org.modmq.remoting.netty;

import io.netty.buffer.ByteBufAllocator;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslHandler;
import java.util.Objects;
import javax.net.ssl.SSLEngine;
import org.modmq.api.config.ConfigException;

/**
 * The TLS side of a process's outgoing connections ({@code tls.enable}): plain, or TLS with the context
 * built from {@link TlsSettings}. {@link RemotingClient} puts an {@code SslHandler} first on every
 * connection it opens; other dialers (HA) may take {@link #newEngine} engines. Thread-safe.
 */
public final class ClientTls {

    private static final ClientTls PLAIN = new ClientTls(null);

    private final SslContext context;

    private ClientTls(SslContext context) {
        this.context = context;
    }

    /** Plain TCP. */
    public static ClientTls plain() {
        return PLAIN;
    }

    /**
     * TLS when {@code settings.clientEnabled()}, else plain.
     *
     * @throws ConfigException when a certificate key is bad
     */
    public static ClientTls create(TlsSettings settings) {
        Objects.requireNonNull(settings, "settings");
        return settings.clientEnabled() ? always(settings) : PLAIN;
    }

    /**
     * TLS whatever {@code tls.enable} says (a port whose own key asks for TLS, such as the HA port).
     *
     * @throws ConfigException when a certificate key is bad
     */
    public static ClientTls always(TlsSettings settings) {
        return new ClientTls(TlsContexts.client(Objects.requireNonNull(settings, "settings")));
    }

    /** @return whether connections use TLS */
    public boolean enabled() {
        return context != null;
    }

    /**
     * A client-mode engine for one connection to {@code host:port} (sent as SNI where it is a name).
     *
     * @throws IllegalStateException when TLS is not enabled
     */
    public SSLEngine newEngine(ByteBufAllocator allocator, String host, int port) {
        if (context == null) {
            throw new IllegalStateException("TLS is not enabled for outgoing connections");
        }
        return context.newEngine(allocator, host, port);
    }

    SslHandler newHandler(ByteBufAllocator allocator, String host, int port) {
        return context.newHandler(allocator, host, port);
    }

    @Override
    public String toString() {
        return context == null ? "plain" : "tls";
    }
}
