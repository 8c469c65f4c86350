package org.modmq.namesrv;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.modmq.api.config.ConfigException;

class NamesrvConfigTest {

    @TempDir
    Path dir;

    @Test
    void defaultsMatchTheDocumentedValues() {
        NamesrvConfig config = NamesrvConfig.defaults();
        assertThat(config.listenPort()).isEqualTo(9876);
        assertThat(config.bindAddress()).isEqualTo("127.0.0.1");
        assertThat(config.scanNotActiveBrokerInterval()).isEqualTo(10_000);
        assertThat(config.brokerChannelExpiredTime()).isEqualTo(120_000);
        assertThat(config.orderMessageEnable()).isFalse();
        assertThat(config.enableAllTopicList()).isTrue();
        assertThat(config.kvConfigPath()).isNull();
    }

    @Test
    void loadsAFileAndWarnsAboutIgnoredRocketMqKeys() throws Exception {
        Path file = dir.resolve("namesrv.conf");
        Files.writeString(file, "# comment\nlistenPort=19876\nscanNotActiveBrokerInterval = 5000\n"
                + "orderMessageEnable=true\nrocketmqHome=/opt/rocketmq\nkvConfigPath=" + dir.resolve("kv.json") + "\n");
        List<String> warnings = new ArrayList<>();
        NamesrvConfig config = NamesrvConfig.load(file, warnings::add);
        assertThat(config.listenPort()).isEqualTo(19876);
        assertThat(config.scanNotActiveBrokerInterval()).isEqualTo(5000);
        assertThat(config.orderMessageEnable()).isTrue();
        assertThat(config.kvConfigPath()).isEqualTo(dir.resolve("kv.json"));
        assertThat(warnings).singleElement().asString().contains("rocketmqHome");
    }

    @Test
    void unknownKeyIsAnErrorNamingKeyAndFile() throws Exception {
        Path file = dir.resolve("namesrv.conf");
        Files.writeString(file, "listenPort=9876\nlistenProt=1\n");
        assertThatThrownBy(() -> NamesrvConfig.load(file, w -> { }))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("listenProt")
                .hasMessageContaining(file.toString());
    }

    @Test
    void badValuesNameTheKey() {
        assertThatThrownBy(() -> NamesrvConfig.parse(Map.of("listenPort", "abc"), w -> { }))
                .isInstanceOf(ConfigException.class).hasMessageContaining("listenPort");
        assertThatThrownBy(() -> NamesrvConfig.parse(Map.of("listenPort", "70000"), w -> { }))
                .isInstanceOf(ConfigException.class).hasMessageContaining("listenPort");
        assertThatThrownBy(() -> NamesrvConfig.parse(Map.of("brokerChannelExpiredTime", "0"), w -> { }))
                .isInstanceOf(ConfigException.class).hasMessageContaining("brokerChannelExpiredTime");
        assertThatThrownBy(() -> NamesrvConfig.parse(Map.of("enableAllTopicList", "yes"), w -> { }))
                .isInstanceOf(ConfigException.class).hasMessageContaining("enableAllTopicList");
    }

    @Test
    void missingFileIsAConfigError() {
        assertThatThrownBy(() -> NamesrvConfig.load(dir.resolve("absent.conf"), w -> { }))
                .isInstanceOf(ConfigException.class).hasMessageContaining("absent.conf");
    }

    @Test
    void aclIsOffByDefaultAndAServerWithAnUnusableFileDoesNotStart() throws Exception {
        NamesrvConfig defaults = NamesrvConfig.defaults();
        assertThat(defaults.aclEnable()).isFalse();
        assertThat(defaults.aclFile()).isEqualTo(Path.of("conf/plain_acl.yml"));
        NamesrvConfig on = NamesrvConfig.parse(Map.of("aclEnable", "true", "aclFile",
                dir.resolve("absent.yml").toString(), "listenPort", "0"), w -> { });
        assertThat(on.aclEnable()).isTrue();
        assertThatThrownBy(() -> new NamesrvServer(on)).isInstanceOf(ConfigException.class)
                .hasMessageContaining("absent.yml");
        Path file = dir.resolve("namesrv-acl.conf");
        Files.writeString(file, "listenPort=0\naclEnable=true\naclFile=" + dir.resolve("absent.yml") + "\n");
        assertThat(NamesrvStartup.run(new String[] {"-c", file.toString()})).isEqualTo(1);
    }

    @Test
    void propertiesRoundTrip() {
        NamesrvConfig config = NamesrvConfig.defaults().withListenPort(0);
        assertThat(NamesrvConfig.parse(config.asProperties(), w -> { })).isEqualTo(config);
    }

    @Test
    void startupPrintsAndRejects() throws Exception {
        Path file = dir.resolve("namesrv.conf");
        Files.writeString(file, "listenPort=0\n");
        assertThat(NamesrvStartup.run(new String[] {"-c", file.toString(), "-p"})).isZero();
        assertThat(NamesrvStartup.run(new String[] {"-x"})).isEqualTo(1);
        assertThat(NamesrvStartup.run(new String[] {"-c"})).isEqualTo(1);
        Files.writeString(file, "bogus=1\n");
        assertThat(NamesrvStartup.run(new String[] {"-c", file.toString()})).isEqualTo(1);
    }
}
