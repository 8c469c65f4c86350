package org.modmq.broker.data;

import io.netty.buffer.ByteBufAllocator;
import java.util.Objects;
import javax.net.ssl.SSLEngine;
import org.modmq.api.config.ConfigException;
import org.modmq.api.spi.TransportTls;
import org.modmq.remoting.netty.ClientTls;
import org.modmq.remoting.netty.ServerTls;
import org.modmq.remoting.netty.TlsMode;
import org.modmq.remoting.netty.TlsSettings;

/**
 * TLS of the HA port ({@code haTlsEnable=true}), handed to the replication plugin: the serving side
 * presents the {@code tls.server.*} certificate (whatever {@code tlsMode} the remoting ports use), the
 * dialing side follows the {@code tls.client.*} keys. Thread-safe.
 */
final class HaTransportTls implements TransportTls {

    private final ServerTls server;
    private final ClientTls client;

    private HaTransportTls(ServerTls server, ClientTls client) {
        this.server = server;
        this.client = client;
    }

    /** @throws ConfigException when no server certificate is configured or a certificate key is bad */
    static HaTransportTls of(TlsSettings settings) {
        Objects.requireNonNull(settings, "settings");
        try {
            return new HaTransportTls(ServerTls.create(settings.withMode(TlsMode.ENFORCING)), ClientTls.always(settings));
        } catch (ConfigException e) {
            throw new ConfigException("haTlsEnable=true: " + e.getMessage(), e);
        }
    }

    @Override
    public SSLEngine newServerEngine(ByteBufAllocator allocator) {
        return server.newEngine(allocator);
    }

    @Override
    public SSLEngine newClientEngine(ByteBufAllocator allocator, String host, int port) {
        return client.newEngine(allocator, host, port);
    }
}
