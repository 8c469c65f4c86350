package org.modmq.launcher;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.modmq.broker.config.BrokerConfig;

class StandaloneStartupTest {

    @TempDir
    Path dir;

    @Test
    void embedsDefaultsAndAppliesStoreDirAndConfigFile() throws Exception {
        Path conf = Files.writeString(dir.resolve("broker.conf"), "brokerName=standalone-x\nlistenPort=20911\n");
        BrokerConfig config = StandaloneStartup.config(new String[] {"-d", dir.resolve("s").toString(), "-c",
            conf.toString()}, "127.0.0.1:9876");
        assertThat(config.identity().ip1()).isEqualTo("127.0.0.1");
        assertThat(config.identity().brokerName()).isEqualTo("standalone-x");
        assertThat(config.identity().listenPort()).isEqualTo(20911);
        assertThat(config.topics().autoCreateTopicEnable()).isTrue();
        assertThat(config.store().rootDir()).isEqualTo(dir.resolve("s").toAbsolutePath());

        BrokerConfig defaults = StandaloneStartup.config(new String[0], "127.0.0.1:9876");
        assertThat(defaults.identity().listenPort()).isEqualTo(10911);
        assertThat(defaults.store().rootDir()).isEqualTo(Path.of("store").toAbsolutePath());
    }

    @Test
    void embeddedNameServerListensWhereTheConfigFilePointsTheBroker() throws Exception {
        assertThat(StandaloneStartup.namesrvPort(StandaloneStartup.config(new String[0], "127.0.0.1:9876")))
                .isEqualTo(9876);
        Path conf = Files.writeString(dir.resolve("moved.conf"), "namesrvAddr=127.0.0.1:29876\nlistenPort=20911\n");
        BrokerConfig moved = StandaloneStartup.config(new String[] {"-c", conf.toString()}, "127.0.0.1:9876");
        assertThat(moved.nameServer().addresses()).containsExactly("127.0.0.1:29876");
        assertThat(StandaloneStartup.namesrvPort(moved)).isEqualTo(29876);
    }

    @Test
    void theFileMayAddAControllerBesideTheNameServer() throws Exception {
        Path conf = Files.writeString(dir.resolve("with-controller.conf"), "brokerName=standalone-c\n"
                + "enableControllerInNamesrv=true\ncontrollerDLegerPeers=n0-127.0.0.1:29878\n");
        StandaloneStartup.Setup setup = StandaloneStartup.setup(new String[] {"-c", conf.toString()}, "127.0.0.1:9876");
        assertThat(setup.broker().identity().brokerName()).isEqualTo("standalone-c");
        assertThat(setup.controller().self().remotingAddress()).isEqualTo("127.0.0.1:29878");
        assertThat(StandaloneStartup.setup(new String[0], "127.0.0.1:9876").controller()).isNull();
        Path orphan = Files.writeString(dir.resolve("orphan.conf"), "controllerDLegerPeers=n0-127.0.0.1:29878\n");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> StandaloneStartup.setup(new String[] {"-c",
                orphan.toString()}, "127.0.0.1:9876")).hasMessageContaining("enableControllerInNamesrv=true");
    }
}
