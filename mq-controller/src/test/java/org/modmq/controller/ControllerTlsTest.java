package org.modmq.controller;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.modmq.api.config.ConfigException;
import org.modmq.remoting.netty.ClientTls;
import org.modmq.remoting.netty.RemotingClient;
import org.modmq.remoting.netty.RemotingClientConfig;
import org.modmq.remoting.netty.TlsMode;
import org.modmq.remoting.netty.TlsSettings;
import org.modmq.remoting.protocol.RemotingCommand;
import org.modmq.remoting.protocol.RequestCode;
import org.modmq.remoting.protocol.ResponseCode;
import org.modmq.testkit.process.Await;
import org.modmq.testkit.process.FreePort;
import org.modmq.testkit.process.TestCertificates;

/** The controller's remoting port takes the TLS keys of its configuration (the Raft port stays plain). */
@Tag("integration")
@Timeout(60)
class ControllerTlsTest {

    @TempDir
    Path root;

    private Map<String, String> settings(String mode) {
        int[] ports = FreePort.pick(2);
        Map<String, String> values = new LinkedHashMap<>();
        values.put("controllerDLegerPeers", "n0-127.0.0.1:" + ports[0]);
        values.put("controllerRaftPeers", "n0-127.0.0.1:" + ports[1]);
        values.put("controllerStorePath", root.resolve("n0").toString());
        values.put("raftElectionTimeoutMin", "150");
        values.put("raftElectionTimeoutMax", "300");
        values.put("tlsMode", mode);
        return values;
    }

    @Test
    void anEnforcingControllerAnswersTlsClientsOnly() throws Exception {
        TestCertificates certs = TestCertificates.create(root.resolve("certs"));
        Map<String, String> values = settings("enforcing");
        values.put("tls.server.certPath", certs.server().certificate().toString());
        values.put("tls.server.keyPath", certs.server().privateKey().toString());
        ControllerConfig config = ControllerConfig.parse(values, warning -> { });
        assertThat(config.tls().mode()).isEqualTo(TlsMode.ENFORCING);
        try (ControllerServer controller = new ControllerServer(config).start();
             RemotingClient tls = new RemotingClient(RemotingClientConfig.defaults(),
                     ClientTls.always(TlsSettings.resolve(Map.of(), new java.util.Properties())));
             RemotingClient plain = new RemotingClient(RemotingClientConfig.defaults())) {
            RemotingCommand answer = Await.value("metadata over TLS", Duration.ofSeconds(20), () -> {
                try {
                    RemotingCommand reply = tls.invoke(controller.address(),
                            RemotingCommand.request(RequestCode.CONTROLLER_GET_METADATA_INFO), Duration.ofSeconds(5))
                            .get(10, TimeUnit.SECONDS);
                    return reply.code() == ResponseCode.SUCCESS ? reply : null;
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });
            assertThat(answer.code()).isEqualTo(ResponseCode.SUCCESS);
            assertThatThrownBy(() -> plain.invoke(controller.address(),
                    RemotingCommand.request(RequestCode.CONTROLLER_GET_METADATA_INFO), Duration.ofSeconds(5))
                    .get(10, TimeUnit.SECONDS)).isInstanceOf(ExecutionException.class);
        }
    }

    @Test
    void enforcingWithoutACertificateFailsBeforeTheRaftLogOpens() {
        ControllerConfig config = ControllerConfig.parse(settings("enforcing"), warning -> { });
        assertThatThrownBy(() -> new ControllerServer(config)).isInstanceOf(ConfigException.class)
                .hasMessageContaining("tls.server.certPath");
        assertThat(root.resolve("n0")).doesNotExist();
    }
}
