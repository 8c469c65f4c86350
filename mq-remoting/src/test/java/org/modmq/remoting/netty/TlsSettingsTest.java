package org.modmq.remoting.netty;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.modmq.api.config.ConfigException;

class TlsSettingsTest {

    @TempDir
    Path dir;

    private Map<String, String> withTlsFile(String content, Map<String, String> keys) throws IOException {
        Map<String, String> values = new HashMap<>(keys);
        values.put(TlsSettings.CONFIG_FILE, Files.writeString(dir.resolve("tls.properties"), content).toString());
        return values;
    }

    @Test
    void defaultsArePermissivePlainDialingAndTestMode() throws IOException {
        TlsSettings settings = TlsSettings.resolve(withTlsFile("", Map.of()), new Properties());
        assertThat(settings.mode()).isEqualTo(TlsMode.PERMISSIVE);
        assertThat(settings.clientEnabled()).isFalse();
        assertThat(settings.testMode()).isTrue();
        assertThat(settings.needClientAuth()).isEqualTo("none");
        assertThat(settings.hasServerCertificate()).isFalse();
    }

    @Test
    void enforcingDialsWithTlsUnlessToldOtherwise() throws IOException {
        assertThat(TlsSettings.resolve(withTlsFile("", Map.of("tlsMode", "ENFORCING")), new Properties())
                .clientEnabled()).isTrue();
        assertThat(TlsSettings.resolve(withTlsFile("", Map.of("tlsMode", "enforcing", "useTLS", "false")),
                new Properties()).clientEnabled()).isFalse();
    }

    @Test
    void systemPropertiesWinOverTheConfigurationFileAndTlsConfigFileWinsOverBoth() throws IOException {
        Properties system = new Properties();
        system.setProperty(TlsSettings.SERVER_MODE, "disabled");
        system.setProperty(TlsSettings.SERVER_CERT_PATH, "/from/system.pem");
        system.setProperty(TlsSettings.SERVER_KEY_PATH, "/from/system.key");
        Map<String, String> conf = withTlsFile("tls.server.certPath=/from/file.pem\ntls.server.mode=enforcing\n",
                Map.of("tlsMode", "enforcing", TlsSettings.SERVER_KEY_PATH, "/from/conf.key"));
        TlsSettings settings = TlsSettings.resolve(conf, system);
        assertThat(settings.mode()).as("tls.config.file cannot set the mode").isEqualTo(TlsMode.DISABLED);
        assertThat(settings.serverCertPath()).isEqualTo("/from/file.pem");
        assertThat(settings.serverKeyPath()).isEqualTo("/from/system.key");
        assertThat(settings.configFileRead()).endsWith("tls.properties");
    }

    @Test
    void anAliasAndItsKeyWithDifferentValuesAreRefused() throws IOException {
        Map<String, String> conf = withTlsFile("", Map.of("tlsMode", "enforcing", TlsSettings.SERVER_MODE, "disabled"));
        assertThatThrownBy(() -> TlsSettings.resolve(conf, new Properties())).isInstanceOf(ConfigException.class)
                .hasMessageContaining("tls.server.mode");
    }

    @Test
    void badValuesNameTheKeyAndWhatIsAllowed() throws IOException {
        assertThatThrownBy(() -> TlsSettings.resolve(withTlsFile("", Map.of("tlsMode", "strict")), new Properties()))
                .isInstanceOf(ConfigException.class).hasMessageContaining("tls.server.mode=strict")
                .hasMessageContaining("permissive");
        assertThatThrownBy(() -> TlsSettings.resolve(withTlsFile("tls.server.need.client.auth=always\n", Map.of()),
                new Properties())).isInstanceOf(ConfigException.class).hasMessageContaining("require");
        assertThatThrownBy(() -> TlsSettings.resolve(withTlsFile("", Map.of("useTLS", "yes")), new Properties()))
                .isInstanceOf(ConfigException.class).hasMessageContaining("tls.enable=yes");
    }

    @Test
    void aNamedTlsConfigFileThatIsMissingIsAnError() {
        Map<String, String> conf = Map.of(TlsSettings.CONFIG_FILE, dir.resolve("absent.properties").toString());
        assertThatThrownBy(() -> TlsSettings.resolve(conf, new Properties())).isInstanceOf(ConfigException.class)
                .hasMessageContaining("absent.properties");
    }

    @Test
    void theLogLineHidesPasswords() throws IOException {
        TlsSettings settings = TlsSettings.resolve(withTlsFile("tls.server.keyPassword=s3cret\n"
                + "tls.client.keyPassword=s3cret\n", Map.of()), new Properties());
        assertThat(settings.serverKeyPassword()).isEqualTo("s3cret");
        assertThat(settings.toString()).doesNotContain("s3cret").contains("tls.server.mode=permissive");
    }

    @Test
    void keysListsEveryNameAConfigurationFileMayHold() {
        assertThat(TlsSettings.KEYS).contains("tlsMode", "useTLS", "tls.server.mode", "tls.enable",
                "tls.config.file", "tls.test.mode.enable", "tls.server.need.client.auth", "tls.server.certPath",
                "tls.client.trustCertPath", "tlsReloadIntervalSeconds").hasSize(18);
    }
}
