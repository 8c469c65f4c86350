package org.modmq.remoting.netty;

import io.netty.handler.ssl.ClientAuth;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslProvider;
import io.netty.handler.ssl.util.InsecureTrustManagerFactory;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import javax.net.ssl.SSLException;
import org.modmq.api.config.ConfigException;

/**
 * Builds Netty {@link SslContext}s from {@link TlsSettings}, with the JDK's TLS provider (no native
 * library). Trust follows RocketMQ's {@code TlsHelper}: a side that is not told to authenticate its peer
 * ({@code tls.server.authClient}, {@code tls.client.authServer}) accepts any certificate; one that is
 * checks it against the configured trust file, else the JDK's trust store. Host names are not checked,
 * as in RocketMQ: peers are dialed by address. Stateless.
 */
final class TlsContexts {

    private TlsContexts() {
    }

    /**
     * The server side, or null when no certificate is configured.
     *
     * @throws ConfigException when only one of certificate and key is set, or a file is missing or does not parse
     */
    static SslContext server(TlsSettings settings) {
        if (!settings.hasServerCertificate()) {
            return null;
        }
        File cert = existing(TlsSettings.SERVER_CERT_PATH, settings.serverCertPath());
        File key = existing(TlsSettings.SERVER_KEY_PATH, settings.serverKeyPath());
        try {
            SslContextBuilder builder = SslContextBuilder.forServer(cert, key, settings.serverKeyPassword())
                    .sslProvider(SslProvider.JDK)
                    .clientAuth(ClientAuth.valueOf(settings.needClientAuth().toUpperCase(Locale.ROOT)));
            if (!settings.serverAuthClient()) {
                builder.trustManager(InsecureTrustManagerFactory.INSTANCE);
            } else if (settings.serverTrustCertPath() != null) {
                builder.trustManager(existing(TlsSettings.SERVER_TRUST_CERT_PATH, settings.serverTrustCertPath()));
            }
            return builder.build();
        } catch (ConfigException e) {
            throw e;
        } catch (SSLException | IllegalArgumentException e) {
            throw new ConfigException("cannot build the TLS server context from " + TlsSettings.SERVER_CERT_PATH + "="
                    + cert + " and " + TlsSettings.SERVER_KEY_PATH + "=" + key + ": " + e.getMessage(), e);
        }
    }

    /**
     * The server's certificate and key alone, without client authentication: what {@link TlsContextProbe}
     * handshakes with to prove the pair belongs together.
     *
     * @throws ConfigException as {@link #server}
     */
    static SslContext serverIdentity(TlsSettings settings) {
        File cert = existing(TlsSettings.SERVER_CERT_PATH, settings.serverCertPath());
        File key = existing(TlsSettings.SERVER_KEY_PATH, settings.serverKeyPath());
        try {
            return SslContextBuilder.forServer(cert, key, settings.serverKeyPassword()).sslProvider(SslProvider.JDK).build();
        } catch (SSLException | IllegalArgumentException e) {
            throw new ConfigException("cannot build the TLS server context from " + TlsSettings.SERVER_CERT_PATH + "="
                    + cert + " and " + TlsSettings.SERVER_KEY_PATH + "=" + key + ": " + e.getMessage(), e);
        }
    }

    /**
     * The dialing side (whether or not {@code tls.enable} is set).
     *
     * @throws ConfigException when a file is missing or does not parse
     */
    static SslContext client(TlsSettings settings) {
        try {
            SslContextBuilder builder = SslContextBuilder.forClient().sslProvider(SslProvider.JDK)
                    .endpointIdentificationAlgorithm(null);
            if (settings.testMode() || !settings.clientAuthServer()) {
                builder.trustManager(InsecureTrustManagerFactory.INSTANCE);
            } else if (settings.clientTrustCertPath() != null) {
                builder.trustManager(existing(TlsSettings.CLIENT_TRUST_CERT_PATH, settings.clientTrustCertPath()));
            }
            // In test mode RocketMQ's client presents no certificate; modmq does the same.
            if (!settings.testMode() && (settings.clientCertPath() != null || settings.clientKeyPath() != null)) {
                builder.keyManager(existing(TlsSettings.CLIENT_CERT_PATH, settings.clientCertPath()),
                        existing(TlsSettings.CLIENT_KEY_PATH, settings.clientKeyPath()), settings.clientKeyPassword());
            }
            return builder.build();
        } catch (ConfigException e) {
            throw e;
        } catch (SSLException | IllegalArgumentException e) {
            throw new ConfigException("cannot build the TLS client context (" + TlsSettings.CLIENT_CERT_PATH + "="
                    + settings.clientCertPath() + ", " + TlsSettings.CLIENT_KEY_PATH + "=" + settings.clientKeyPath()
                    + "): " + e.getMessage(), e);
        }
    }

    private static File existing(String key, String path) {
        if (path == null) {
            throw new ConfigException(key + " is not set; it is needed with the other certificate keys");
        }
        Path file = Path.of(path);
        if (!Files.isRegularFile(file) || !Files.isReadable(file)) {
            throw new ConfigException(key + "=" + path + " is not a readable file");
        }
        return file.toFile();
    }
}
