package org.modmq.ha.push;

import static org.assertj.core.api.Assertions.assertThat;
import static org.modmq.ha.push.HaFixture.WAIT;
import static org.modmq.ha.push.HaFixture.await;
import static org.modmq.ha.push.HaFixture.awaitCaughtUp;
import static org.modmq.ha.push.HaFixture.burst;

import io.netty.buffer.ByteBufAllocator;
import java.io.DataOutputStream;
import java.io.InputStream;
import java.net.Socket;
import java.net.SocketException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.cert.CertificateFactory;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.TrustManagerFactory;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.modmq.api.spi.TransportTls;
import org.modmq.ha.push.HaFixture.Node;
import org.modmq.testkit.process.TestCertificates;

/** The push strategy with {@link TransportTls} from the plugin context: replication over TLS, plain bytes closed. */
@Tag("integration")
@Timeout(60)
class TlsReplicationTest {

    @TempDir
    Path root;

    @RegisterExtension
    final HaFixture fixture = new HaFixture();

    /** A JDK context with the test server's key, trusting only that same certificate: mutual authentication. */
    static TransportTls jdkTls(TestCertificates certs) throws Exception {
        char[] password = TestCertificates.KEY_STORE_PASSWORD.toCharArray();
        KeyStore keys = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(certs.server().keyStore())) {
            keys.load(in, password);
        }
        KeyManagerFactory keyManagers = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        keyManagers.init(keys, password);
        KeyStore trusted = KeyStore.getInstance("PKCS12");
        trusted.load(null, null);
        try (InputStream in = Files.newInputStream(certs.server().certificate())) {
            trusted.setCertificateEntry("server", CertificateFactory.getInstance("X.509").generateCertificate(in));
        }
        TrustManagerFactory trustManagers = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        trustManagers.init(trusted);
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(keyManagers.getKeyManagers(), trustManagers.getTrustManagers(), null);
        return new TransportTls() {
            @Override
            public SSLEngine newServerEngine(ByteBufAllocator allocator) {
                SSLEngine engine = context.createSSLEngine();
                engine.setUseClientMode(false);
                engine.setNeedClientAuth(true);
                return engine;
            }

            @Override
            public SSLEngine newClientEngine(ByteBufAllocator allocator, String host, int port) {
                SSLEngine engine = context.createSSLEngine(host, port);
                engine.setUseClientMode(true);
                return engine;
            }
        };
    }

    @Test
    void replicatesByteForByteOverTlsAndClosesPlainConnections() throws Exception {
        TransportTls tls = jdkTls(TestCertificates.create(root.resolve("certs")));
        try (Node master = fixture.openWithTls(root.resolve("master"), tls, "brokerRole", "ASYNC_MASTER");
             Node replica = fixture.openWithTls(root.resolve("replica"), tls, "brokerRole", "SLAVE", "brokerId", "1",
                     "haMasterAddress", master.haAddress())) {
            await(() -> master.store().replicas().size() == 1, WAIT, "the replica to connect over TLS");
            burst(master.store(), 100, 1000, "tls");
            awaitCaughtUp(master, replica);
            assertThat(HaFixture.bytesOf(replica.log())).isEqualTo(HaFixture.bytesOf(master.log()));

            try (Socket plain = new Socket("127.0.0.1", master.haSocket().getPort())) {
                plain.setSoTimeout(10_000);
                DataOutputStream out = new DataOutputStream(plain.getOutputStream());
                out.writeLong(0);
                out.flush();
                try {
                    assertThat(plain.getInputStream().read()).isEqualTo(-1);
                } catch (SocketException reset) {
                    // closed by a reset: also a refusal
                }
            }
            assertThat(master.store().replicas()).hasSize(1);
        }
    }
}
