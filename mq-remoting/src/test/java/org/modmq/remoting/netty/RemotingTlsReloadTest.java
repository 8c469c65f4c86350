package org.modmq.remoting.netty;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManager;
import javax.net.ssl.X509TrustManager;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.modmq.remoting.protocol.RemotingCommand;
import org.modmq.remoting.protocol.RequestCode;
import org.modmq.remoting.protocol.ResponseCode;
import org.modmq.testkit.NettyLeakCheck;
import org.modmq.testkit.process.TestCertificates;

/**
 * A real TLS server whose certificate files are replaced while it runs: after the reload step new
 * connections are handed the new certificate, a connection made before goes on being served, and a bad
 * replacement leaves the certificate in force.
 */
@Tag("integration")
@Timeout(60)
@ExtendWith(NettyLeakCheck.class)
class RemotingTlsReloadTest {

    private static final Duration WAIT = Duration.ofSeconds(15);

    @TempDir
    Path dir;

    /** The subject of the certificate a new TLS connection to {@code port} is shown (any is trusted). */
    private static String presentedSubject(int port) throws Exception {
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(null, new TrustManager[] {new X509TrustManager() {
            @Override
            public void checkClientTrusted(X509Certificate[] chain, String authType) {
            }

            @Override
            public void checkServerTrusted(X509Certificate[] chain, String authType) {
            }

            @Override
            public X509Certificate[] getAcceptedIssuers() {
                return new X509Certificate[0];
            }
        }}, null);
        try (SSLSocket socket = (SSLSocket) context.getSocketFactory().createSocket("127.0.0.1", port)) {
            socket.setSoTimeout(10_000);
            socket.startHandshake();
            return ((X509Certificate) socket.getSession().getPeerCertificates()[0]).getSubjectX500Principal().getName();
        }
    }

    @Test
    void newConnectionsGetTheReplacedCertificateAndOldOnesStayServed() throws Exception {
        TestCertificates certs = TestCertificates.create(dir.resolve("certs"));
        Path cert = Files.copy(certs.server().certificate(), dir.resolve("live.crt.pem"));
        Path key = Files.copy(certs.server().privateKey(), dir.resolve("live.key.pem"));
        Path empty = Files.writeString(dir.resolve("tls.properties"), "");
        TlsSettings settings = TlsSettings.resolve(Map.of(TlsSettings.SERVER_MODE, "enforcing",
                TlsSettings.SERVER_CERT_PATH, cert.toString(), TlsSettings.SERVER_KEY_PATH, key.toString(),
                TlsSettings.RELOAD_INTERVAL_SECONDS, "5", TlsSettings.CONFIG_FILE, empty.toString()), new Properties());
        AtomicLong clock = new AtomicLong();
        ServerTls tls = ServerTls.create(settings, clock::get);
        TlsReloadAgent agent = tls.reloadAgent().orElseThrow();
        ThreadPoolExecutor executor = ProcessorExecutors.bounded("tls-reload-test", 1, 16);
        try (RemotingServer server = new RemotingServer(RemotingServerConfig.of("127.0.0.1", 0).withIoThreads(1)
                .withShutdownGrace(Duration.ofSeconds(1)), tls);
             RemotingClient client = new RemotingClient(RemotingClientConfig.defaults(),
                     ClientTls.create(TlsSettings.resolve(Map.of(TlsSettings.ENABLE, "true", TlsSettings.CONFIG_FILE,
                             empty.toString()), new Properties())))) {
            server.registerProcessor(RequestCode.GET_ROUTEINFO_BY_TOPIC, RequestProcessor.sync((channel, request) ->
                    RemotingCommand.responseTo(request, ResponseCode.SUCCESS, "hello")), executor);
            server.start();
            String address = "127.0.0.1:" + server.port();
            assertThat(call(client, address)).isEqualTo(ResponseCode.SUCCESS);
            assertThat(presentedSubject(server.port())).isEqualTo("CN=modmq-test-server");
            assertThat(call(client, address)).as("the connection stays served beside other handshakes")
                    .isEqualTo(ResponseCode.SUCCESS);

            Files.copy(certs.stranger().certificate(), cert, StandardCopyOption.REPLACE_EXISTING);
            Files.copy(certs.stranger().privateKey(), key, StandardCopyOption.REPLACE_EXISTING);
            assertThat(presentedSubject(server.port())).as("nothing changes before the step").isEqualTo("CN=modmq-test-server");
            clock.addAndGet(5_000);
            agent.doWork();
            assertThat(agent.reloads()).isEqualTo(1);
            assertThat(presentedSubject(server.port())).isEqualTo("CN=modmq-test-stranger");
            assertThat(call(client, address)).as("the connection made before").isEqualTo(ResponseCode.SUCCESS);

            Files.writeString(key, "garbage");
            clock.addAndGet(5_000);
            agent.doWork();
            assertThat(agent.state()).isEqualTo(TlsReloadAgent.State.REJECTED);
            assertThat(presentedSubject(server.port())).isEqualTo("CN=modmq-test-stranger");
        } finally {
            executor.shutdownNow();
        }
    }

    private static int call(RemotingClient client, String address) throws Exception {
        return client.invoke(address, RemotingCommand.request(RequestCode.GET_ROUTEINFO_BY_TOPIC), WAIT)
                .get(20, TimeUnit.SECONDS).code();
    }
}
