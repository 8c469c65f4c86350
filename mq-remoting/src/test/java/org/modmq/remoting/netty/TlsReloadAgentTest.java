package org.modmq.remoting.netty;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.util.InsecureTrustManagerFactory;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.modmq.api.config.ConfigException;
import org.modmq.remoting.protocol.RemotingCommand;
import org.modmq.remoting.protocol.RequestCode;
import org.modmq.remoting.protocol.ResponseCode;
import org.modmq.testkit.NettyLeakCheck;
import org.modmq.testkit.process.TestCertificates;

/** The reload agent stepped with a manual clock over real certificate files (keytool-made, once for the class). */
@ExtendWith(NettyLeakCheck.class)
class TlsReloadAgentTest {

    private static final Duration WAIT = Duration.ofSeconds(15);

    @TempDir
    static Path shared;
    private static TestCertificates certs;

    @TempDir
    Path dir;

    private final AtomicLong clock = new AtomicLong(1_000_000);
    private final List<SslContext> installed = new ArrayList<>();
    private Path cert;
    private Path key;

    @BeforeAll
    static void makeCertificates() {
        certs = TestCertificates.create(shared.resolve("certs"));
    }

    @BeforeEach
    void liveFiles() throws IOException {
        cert = Files.copy(certs.server().certificate(), dir.resolve("live.crt.pem"));
        key = Files.copy(certs.server().privateKey(), dir.resolve("live.key.pem"));
    }

    private TlsSettings settings(long intervalSeconds) throws IOException {
        Path empty = Files.writeString(dir.resolve("tls.properties"), "");
        return TlsSettings.resolve(Map.of(TlsSettings.SERVER_CERT_PATH, cert.toString(), TlsSettings.SERVER_KEY_PATH,
                key.toString(), TlsSettings.RELOAD_INTERVAL_SECONDS, Long.toString(intervalSeconds),
                TlsSettings.CONFIG_FILE, empty.toString()), new Properties());
    }

    private TlsReloadAgent agent() throws IOException {
        TlsSettings settings = settings(10);
        return new TlsReloadAgent(settings, TlsReloadAgent.digests(TlsReloadAgent.watched(settings)), installed::add,
                clock::get);
    }

    private void replace(Path target, Path source) throws IOException {
        Files.copy(source, target, StandardCopyOption.REPLACE_EXISTING);
    }

    private void tick() {
        clock.addAndGet(10_000);
    }

    @Test
    void looksOnlyOncePerIntervalAndTakesANewCertificateAndKey() throws IOException {
        TlsReloadAgent agent = agent();
        assertThat(agent.files()).containsExactly(cert, key);
        replace(cert, certs.stranger().certificate());
        replace(key, certs.stranger().privateKey());
        clock.addAndGet(9_999);
        assertThat(agent.doWork()).as("before the interval").isZero();
        assertThat(installed).isEmpty();
        clock.addAndGet(1);
        assertThat(agent.doWork()).isEqualTo(1);
        assertThat(installed).hasSize(1);
        assertThat(agent.state()).isEqualTo(TlsReloadAgent.State.CURRENT);
        assertThat(agent.reloads()).isEqualTo(1);
        tick();
        assertThat(agent.doWork()).as("unchanged since").isZero();
        assertThat(installed).hasSize(1);
    }

    @Test
    void aCertificateWithoutItsKeyKeepsTheOldContextUntilTheKeyFollows() throws IOException {
        TlsReloadAgent agent = agent();
        replace(cert, certs.stranger().certificate());
        tick();
        assertThat(agent.doWork()).isEqualTo(1);
        assertThat(agent.state()).isEqualTo(TlsReloadAgent.State.REJECTED);
        assertThat(installed).as("a key that does not match is not put in force").isEmpty();
        tick();
        assertThat(agent.doWork()).as("the same rejected files are not tried again").isZero();
        replace(key, certs.stranger().privateKey());
        tick();
        assertThat(agent.doWork()).isEqualTo(1);
        assertThat(agent.state()).isEqualTo(TlsReloadAgent.State.CURRENT);
        assertThat(installed).hasSize(1);
    }

    @Test
    void aMissingOrGarbledFileIsRejectedAndItsReturnTaken() throws IOException {
        TlsReloadAgent agent = agent();
        Files.delete(key);
        tick();
        assertThat(agent.doWork()).isEqualTo(1);
        assertThat(agent.state()).isEqualTo(TlsReloadAgent.State.REJECTED);
        Files.writeString(key, "-----BEGIN PRIVATE KEY-----\nnot base64 at all\n-----END PRIVATE KEY-----\n");
        tick();
        assertThat(agent.doWork()).isEqualTo(1);
        assertThat(agent.state()).isEqualTo(TlsReloadAgent.State.REJECTED);
        assertThat(installed).isEmpty();
        replace(key, certs.server().privateKey());
        tick();
        assertThat(agent.doWork()).isEqualTo(1);
        assertThat(agent.state()).isEqualTo(TlsReloadAgent.State.CURRENT);
        assertThat(installed).hasSize(1);
    }

    @Test
    void aServerHasAnAgentOnlyWithCertificatesAndAnInterval() throws IOException {
        assertThat(ServerTls.create(settings(10), clock::get).reloadAgent()).isPresent();
        assertThat(ServerTls.create(settings(0), clock::get).reloadAgent()).isEmpty();
        assertThat(ServerTls.create(settings(10).withMode(TlsMode.DISABLED), clock::get).reloadAgent()).isEmpty();
        Path empty = Files.writeString(dir.resolve("none.properties"), "");
        assertThat(ServerTls.create(TlsSettings.resolve(Map.of(TlsSettings.CONFIG_FILE, empty.toString()),
                new Properties()), clock::get).reloadAgent()).as("no certificate").isEmpty();
        assertThat(TlsSettings.resolve(Map.of(TlsSettings.CONFIG_FILE, empty.toString()), new Properties())
                .reloadIntervalSeconds()).isEqualTo(TlsSettings.DEFAULT_RELOAD_INTERVAL_SECONDS);
    }

    @Test
    void aBadIntervalIsRefusedNamingTheKey() {
        for (String value : new String[] {"-1", "ten"}) {
            assertThatThrownBy(() -> TlsSettings.resolve(
                            Map.of(TlsSettings.RELOAD_INTERVAL_SECONDS, value, TlsSettings.CONFIG_FILE,
                                    Files.writeString(dir.resolve("v.properties"), "").toString()), new Properties()))
                    .isInstanceOf(ConfigException.class)
                    .hasMessageContaining(TlsSettings.RELOAD_INTERVAL_SECONDS + "=" + value);
        }
    }

    /** The subject of the certificate a new TLS connection to {@code port} is shown (any is trusted). */
    private static String presentedSubject(int port) throws Exception {
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(null, InsecureTrustManagerFactory.INSTANCE.getTrustManagers(), null);
        try (SSLSocket socket = (SSLSocket) context.getSocketFactory().createSocket("127.0.0.1", port)) {
            socket.setSoTimeout(10_000);
            socket.startHandshake();
            return ((X509Certificate) socket.getSession().getPeerCertificates()[0]).getSubjectX500Principal().getName();
        }
    }

    /**
     * A real TLS server whose files are replaced while it runs: after the step new connections are handed
     * the new certificate, a connection made before goes on being served, a bad replacement changes nothing.
     */
    @Test
    @Tag("integration")
    @Timeout(60)
    void newConnectionsGetTheReplacedCertificateAndOldOnesStayServed() throws Exception {
        Path empty = Files.writeString(dir.resolve("empty-tls.properties"), "");
        TlsSettings settings = TlsSettings.resolve(Map.of(TlsSettings.SERVER_MODE, "enforcing",
                TlsSettings.SERVER_CERT_PATH, cert.toString(), TlsSettings.SERVER_KEY_PATH, key.toString(),
                TlsSettings.RELOAD_INTERVAL_SECONDS, "5", TlsSettings.CONFIG_FILE, empty.toString()), new Properties());
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
            assertThat(presentedSubject(server.port())).as("nothing changes before the step")
                    .isEqualTo("CN=modmq-test-server");
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
