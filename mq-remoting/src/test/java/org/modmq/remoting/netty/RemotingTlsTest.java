package org.modmq.remoting.netty;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
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

/** The three server modes against plain and TLS clients, and certificate checks both ways, on 127.0.0.1. */
@Tag("integration")
@Timeout(60)
@ExtendWith(NettyLeakCheck.class)
class RemotingTlsTest {

    private static final Duration WAIT = Duration.ofSeconds(5);

    @TempDir
    static Path dir;
    private static TestCertificates certs;
    private static Path emptyTlsFile;

    private final List<AutoCloseable> open = new ArrayList<>();
    private ThreadPoolExecutor executor;

    @BeforeAll
    static void makeCertificates() throws IOException {
        certs = TestCertificates.create(dir.resolve("certs"));
        emptyTlsFile = Files.writeString(dir.resolve("tls.properties"), "");
    }

    @BeforeEach
    void startExecutor() {
        executor = ProcessorExecutors.bounded("tls-test", 1, 16);
    }

    @AfterEach
    void closeAll() throws Exception {
        for (int i = open.size() - 1; i >= 0; i--) {
            open.get(i).close();
        }
        executor.shutdownNow();
    }

    /** Settings from {@code keys} alone: no system property, and an empty {@code tls.config.file}. */
    static TlsSettings settings(Map<String, String> keys) {
        Map<String, String> values = new HashMap<>(keys);
        values.put(TlsSettings.CONFIG_FILE, emptyTlsFile.toString());
        return TlsSettings.resolve(values, new Properties());
    }

    private static Map<String, String> serverKeys(String mode) {
        Map<String, String> keys = new HashMap<>();
        keys.put(TlsSettings.SERVER_MODE, mode);
        keys.put(TlsSettings.SERVER_CERT_PATH, certs.server().certificate().toString());
        keys.put(TlsSettings.SERVER_KEY_PATH, certs.server().privateKey().toString());
        return keys;
    }

    private String serve(ServerTls tls) {
        RemotingServer server = new RemotingServer(RemotingServerConfig.of("127.0.0.1", 0).withIoThreads(1)
                .withShutdownGrace(Duration.ofSeconds(1)), tls);
        server.registerProcessor(RequestCode.GET_ROUTEINFO_BY_TOPIC, RequestProcessor.sync((channel, request) ->
                RemotingCommand.responseTo(request, ResponseCode.SUCCESS, "hello")), executor);
        open.add(server.start());
        return "127.0.0.1:" + server.port();
    }

    private RemotingClient client(ClientTls tls) {
        RemotingClient client = new RemotingClient(RemotingClientConfig.defaults(), tls);
        open.add(client);
        return client;
    }

    private RemotingClient plainClient() {
        return client(ClientTls.plain());
    }

    /** A TLS client as a stock client in test mode is: trusts any server, presents no certificate. */
    private RemotingClient testModeClient() {
        return client(ClientTls.create(settings(Map.of(TlsSettings.ENABLE, "true"))));
    }

    private static RemotingCommand call(RemotingClient client, String address) throws Exception {
        return client.invoke(address, RemotingCommand.request(RequestCode.GET_ROUTEINFO_BY_TOPIC), WAIT)
                .get(10, TimeUnit.SECONDS);
    }

    private static void assertServed(RemotingClient client, String address) throws Exception {
        RemotingCommand response = call(client, address);
        assertThat(response.code()).isEqualTo(ResponseCode.SUCCESS);
        assertThat(response.remark()).isEqualTo("hello");
    }

    private static void assertRefused(RemotingClient client, String address) {
        assertThatThrownBy(() -> call(client, address)).isInstanceOf(ExecutionException.class)
                .cause().isInstanceOf(RemotingException.class);
    }

    @Test
    void permissiveServesTlsAndPlainClientsOnOnePort() throws Exception {
        String address = serve(ServerTls.create(settings(serverKeys("permissive"))));
        RemotingClient tls = testModeClient();
        assertThat(tls.usesTls()).isTrue();
        assertServed(tls, address);
        assertServed(plainClient(), address);
    }

    @Test
    void enforcingServesTlsAndClosesPlainConnections() throws Exception {
        String address = serve(ServerTls.create(settings(serverKeys("enforcing"))));
        assertRefused(plainClient(), address);
        assertServed(testModeClient(), address);
    }

    @Test
    void disabledServesPlainAndClosesTlsConnections() throws Exception {
        String address = serve(ServerTls.create(settings(serverKeys("disabled"))));
        assertThatThrownBy(() -> call(testModeClient(), address)).isInstanceOf(ExecutionException.class)
                .cause().isInstanceOf(RemotingConnectException.class).hasMessageContaining("TLS handshake");
        assertServed(plainClient(), address);
    }

    @Test
    void permissiveWithoutCertificateServesPlainAndRefusesTls() throws Exception {
        String address = serve(ServerTls.create(settings(Map.of(TlsSettings.SERVER_MODE, "permissive"))));
        assertRefused(testModeClient(), address);
        assertServed(plainClient(), address);
    }

    @Test
    void enforcingWithoutCertificateIsAConfigurationError() {
        assertThatThrownBy(() -> ServerTls.create(settings(Map.of(TlsSettings.SERVER_MODE, "enforcing"))))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("tls.server.certPath").hasMessageContaining("tls.server.keyPath");
    }

    @Test
    void aMissingCertificateFileIsAConfigurationErrorNamingTheKey() {
        Map<String, String> keys = serverKeys("enforcing");
        keys.put(TlsSettings.SERVER_CERT_PATH, dir.resolve("absent.pem").toString());
        assertThatThrownBy(() -> ServerTls.create(settings(keys))).isInstanceOf(ConfigException.class)
                .hasMessageContaining("tls.server.certPath=").hasMessageContaining("absent.pem");
    }

    @Test
    void requiredClientCertificatesAdmitOnlyTrustedClients() throws Exception {
        Map<String, String> server = serverKeys("enforcing");
        server.put(TlsSettings.SERVER_NEED_CLIENT_AUTH, "require");
        server.put(TlsSettings.SERVER_AUTH_CLIENT, "true");
        server.put(TlsSettings.SERVER_TRUST_CERT_PATH, certs.client().certificate().toString());
        String address = serve(ServerTls.create(settings(server)));

        assertServed(client(ClientTls.create(settings(clientKeys(certs.client())))), address);
        assertRefused(client(ClientTls.create(settings(clientKeys(certs.stranger())))), address);
        assertRefused(testModeClient(), address);
    }

    @Test
    void aClientThatAuthenticatesServersRefusesAnUntrustedOne() throws Exception {
        String address = serve(ServerTls.create(settings(serverKeys("enforcing"))));
        Map<String, String> trusting = clientKeys(certs.client());
        assertServed(client(ClientTls.create(settings(trusting))), address);

        Map<String, String> distrusting = clientKeys(certs.client());
        distrusting.put(TlsSettings.CLIENT_TRUST_CERT_PATH, certs.stranger().certificate().toString());
        assertThatThrownBy(() -> call(client(ClientTls.create(settings(distrusting))), address))
                .isInstanceOf(ExecutionException.class).cause().isInstanceOf(RemotingConnectException.class)
                .hasMessageContaining("TLS handshake");
    }

    @Test
    void serverEnginesAreForHandsOfOtherPorts() {
        ServerTls tls = ServerTls.create(settings(serverKeys("enforcing")));
        assertThat(tls.newEngine(io.netty.buffer.ByteBufAllocator.DEFAULT).getUseClientMode()).isFalse();
        assertThatThrownBy(() -> ServerTls.disabled().newEngine(io.netty.buffer.ByteBufAllocator.DEFAULT))
                .isInstanceOf(IllegalStateException.class);
        assertThat(ClientTls.always(settings(Map.of())).newEngine(io.netty.buffer.ByteBufAllocator.DEFAULT,
                "127.0.0.1", 1).getUseClientMode()).isTrue();
    }

    /** A client out of test mode presenting {@code identity}, trusting only the test server's certificate. */
    private static Map<String, String> clientKeys(TestCertificates.Identity identity) {
        Map<String, String> keys = new HashMap<>();
        keys.put(TlsSettings.ENABLE, "true");
        keys.put(TlsSettings.TEST_MODE_ENABLE, "false");
        keys.put(TlsSettings.CLIENT_AUTH_SERVER, "true");
        keys.put(TlsSettings.CLIENT_TRUST_CERT_PATH, certs.server().certificate().toString());
        keys.put(TlsSettings.CLIENT_CERT_PATH, identity.certificate().toString());
        keys.put(TlsSettings.CLIENT_KEY_PATH, identity.privateKey().toString());
        return keys;
    }
}
