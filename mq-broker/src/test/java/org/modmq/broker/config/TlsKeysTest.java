package org.modmq.broker.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.modmq.api.config.ConfigException;
import org.modmq.api.config.ConfigValues;
import org.modmq.remoting.netty.TlsMode;

class TlsKeysTest {

    @TempDir
    Path dir;

    private BrokerConfig parse(Map<String, String> keys) throws IOException {
        Path empty = Files.writeString(dir.resolve("tls.properties"), "");
        Map<String, String> values = new HashMap<>(keys);
        values.put("storePathRootDir", dir.resolve("store").toString());
        values.put("tls.config.file", empty.toString());
        return BrokerConfigParser.parse(ConfigValues.of(values), "test.conf");
    }

    @Test
    void theDefaultIsPermissiveWithPlainOutgoingConnectionsAndPlainHa() throws IOException {
        BrokerConfig config = parse(Map.of());
        assertThat(config.tls().mode()).isEqualTo(TlsMode.PERMISSIVE);
        assertThat(config.tls().clientEnabled()).isFalse();
        assertThat(config.replication().haTlsEnable()).isFalse();
        assertThat(config.effective()).containsEntry("tlsMode", "permissive").containsEntry("useTLS", "false");
    }

    @Test
    void acceptsRocketMqsTlsKeysAndTheHaSwitchButShowsNoPathOrPassword() throws IOException {
        BrokerConfig config = parse(Map.of("tlsMode", "enforcing", "tls.server.certPath", "/c.pem",
                "tls.server.keyPath", "/k.pem", "tls.server.keyPassword", "s3cret", "haTlsEnable", "true"));
        assertThat(config.tls().mode()).isEqualTo(TlsMode.ENFORCING);
        assertThat(config.tls().clientEnabled()).as("enforcing dials with TLS, as RocketMQ").isTrue();
        assertThat(config.tls().serverKeyPassword()).isEqualTo("s3cret");
        assertThat(config.replication().haTlsEnable()).isTrue();
        assertThat(config.toPropertiesText()).contains("tlsMode=enforcing\n", "useTLS=true\n", "haTlsEnable=true\n")
                .doesNotContain("s3cret").doesNotContain("/k.pem");
    }

    @Test
    void aBadModeNamesTheKeyAndTheFile() {
        assertThatThrownBy(() -> parse(Map.of("tlsMode", "on"))).isInstanceOf(ConfigException.class)
                .hasMessageContaining("tls.server.mode=on").hasMessageContaining("test.conf");
    }
}
