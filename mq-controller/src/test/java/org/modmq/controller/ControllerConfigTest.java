package org.modmq.controller;

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

class ControllerConfigTest {

    @Test
    void defaultsAreOneControllerOnTheRocketMqPortWithRaftOneAbove() {
        ControllerConfig config = ControllerConfig.defaults();
        assertThat(config.peers()).containsExactly(new ControllerPeer("n0", "127.0.0.1:9878", "127.0.0.1:9879"));
        assertThat(config.selfId()).isEqualTo("n0");
        assertThat(config.storePath()).isEqualTo(Path.of("store/controller/n0"));
        assertThat(config.scanNotActiveBrokerInterval()).isEqualTo(100);
        assertThat(config.notifyBrokerRoleChanged()).isTrue();
        assertThat(config.enableElectUncleanMaster()).isFalse();
        assertThat(config.brokerHeartbeatTimeoutMills()).isEqualTo(10_000);
    }

    @Test
    void threePeersWithExplicitRaftAddressForOne() {
        ControllerConfig config = ControllerConfig.parse(Map.of(
                "controllerDLegerPeers", "n0-127.0.0.1:9878;n1-127.0.0.1:9868;n2-127.0.0.1:9858",
                "controllerRaftPeers", "n1-127.0.0.1:19868",
                "controllerDLegerSelfId", "n1"), w -> { });
        assertThat(config.self()).isEqualTo(new ControllerPeer("n1", "127.0.0.1:9868", "127.0.0.1:19868"));
        assertThat(config.peers().get(2).raftAddress()).isEqualTo("127.0.0.1:9859");
        assertThat(config.asProperties()).containsEntry("controllerRaftPeers",
                "n0-127.0.0.1:9879;n1-127.0.0.1:19868;n2-127.0.0.1:9859");
    }

    @Test
    void rejectsUnknownKeysAndBadValuesNamingThem() {
        assertThatThrownBy(() -> ControllerConfig.parse(Map.of("controllerStorPath", "x"), w -> { }))
                .isInstanceOf(ConfigException.class).hasMessageContaining("controllerStorPath");
        assertThatThrownBy(() -> ControllerConfig.parse(Map.of("controllerDLegerPeers", "n0-127.0.0.1:9878;n1-127.0.0.1:9868"),
                w -> { })).hasMessageContaining("controllerDLegerSelfId is required");
        assertThatThrownBy(() -> ControllerConfig.parse(Map.of("controllerDLegerSelfId", "n7"), w -> { }))
                .hasMessageContaining("n7");
        assertThatThrownBy(() -> ControllerConfig.parse(Map.of("controllerDLegerPeers", "n0:127.0.0.1:9878"), w -> { }))
                .hasMessageContaining("not id-host:port");
        assertThatThrownBy(() -> ControllerConfig.parse(Map.of("controllerDLegerPeers", "n0-127.0.0.1:x"), w -> { }))
                .hasMessageContaining("not a number");
        assertThatThrownBy(() -> ControllerConfig.parse(Map.of("scanNotActiveBrokerInterval", "0"), w -> { }))
                .hasMessageContaining("scanNotActiveBrokerInterval=0");
        assertThatThrownBy(() -> ControllerConfig.parse(Map.of("raftElectionTimeoutMin", "1500"), w -> { }))
                .hasMessageContaining("raftElectionTimeoutMax");
        assertThatThrownBy(() -> ControllerConfig.parse(Map.of("controllerRaftPeers", "n5-127.0.0.1:1"), w -> { }))
                .hasMessageContaining("n5");
    }

    @Test
    void readsTheRemotingBoundsAndRefusesBadOnes() {
        ControllerConfig config = ControllerConfig.parse(Map.of("remotingMaxConnections", "100",
                "remotingFrameReceiveTimeoutMillis", "0", "serverChannelMaxIdleTimeSeconds", "60"), w -> { });
        assertThat(config.remoting().maxConnections()).isEqualTo(100);
        assertThat(config.remoting().frameReceiveTimeout()).isZero();
        assertThat(config.remoting().idleSeconds()).isEqualTo(60);
        assertThat(config.asProperties()).containsEntry("remotingMaxConnections", "100");
        assertThatThrownBy(() -> ControllerConfig.parse(Map.of("remotingMaxFrameBytes", "2000000000"), w -> { }))
                .isInstanceOf(ConfigException.class).hasMessageContaining("remotingMaxFrameBytes=2000000000");
    }

    @Test
    void warnsAboutRocketMqKeysItIgnores() {
        List<String> warnings = new ArrayList<>();
        ControllerConfig.parse(Map.of("controllerType", "DLedger", "mappedFileSize", "1024"), warnings::add);
        assertThat(warnings).hasSize(2).anyMatch(w -> w.contains("controllerType"));
    }

    @Test
    void loadNamesTheFile(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("controller.conf");
        Files.writeString(file, "controllerDLegerGroup=g1\nbogus=1\n");
        assertThatThrownBy(() -> ControllerConfig.load(file, w -> { })).hasMessageContaining(file.toString())
                .hasMessageContaining("bogus");
        Files.writeString(file, "controllerDLegerGroup=g1\n");
        assertThat(ControllerConfig.load(file, w -> { }).group()).isEqualTo("g1");
    }

    @Test
    void aclIsOffByDefaultAndReadFromTheControllersOwnFile() {
        assertThat(ControllerConfig.defaults().acl()).isEqualTo(ControllerAcl.off());
        assertThat(ControllerConfig.defaults().acl().file()).isEqualTo(Path.of("conf/plain_acl.yml"));
        ControllerConfig config = ControllerConfig.parse(Map.of("aclEnable", "true", "aclFile", "/etc/modmq/acl.yml"),
                w -> { });
        assertThat(config.acl()).isEqualTo(new ControllerAcl(true, Path.of("/etc/modmq/acl.yml")));
        assertThat(config.asProperties()).containsEntry("aclEnable", "true").containsEntry("aclFile", "/etc/modmq/acl.yml");
        assertThatThrownBy(() -> ControllerConfig.parse(Map.of("aclEnable", "yes"), w -> { }))
                .isInstanceOf(ConfigException.class).hasMessageContaining("aclEnable=yes");
    }

    @Test
    void innerCredentialsSignTheNoticesAndTheSecretIsNeverListed() {
        ControllerConfig config = ControllerConfig.parse(Map.of("aclEnable", "true", "innerAccessKey", "modmqInner",
                "innerSecretKey", "inner-secret-1"), w -> { });
        assertThat(config.acl().innerAccessKey()).hasValue("modmqInner");
        assertThat(config.acl().innerSecretKey()).hasValue("inner-secret-1");
        assertThat(config.asProperties()).containsEntry("innerAccessKey", "modmqInner")
                .doesNotContainValue("inner-secret-1").doesNotContainKey("innerSecretKey");
        assertThat(config.acl().toString()).doesNotContain("inner-secret-1");
        assertThat(ControllerConfig.defaults().acl().innerAccessKey()).isEmpty();
        assertThatThrownBy(() -> ControllerConfig.parse(Map.of("innerAccessKey", "modmqInner"), w -> { }))
                .isInstanceOf(ConfigException.class).hasMessageContaining("innerSecretKey");
    }

    @Test
    void theAclKeysAreNotControllerKeysOfASharedFile() {
        // A name server's file with enableControllerInNamesrv=true keeps aclEnable/aclFile for the name server.
        assertThat(ControllerConfig.KEYS).doesNotContainAnyElementsOf(ControllerAcl.KEYS);
        ControllerConfig embedded = ControllerConfig.defaults().withAcl(new ControllerAcl(true, Path.of("conf/a.yml")));
        assertThat(embedded.acl().enabled()).isTrue();
        assertThat(embedded.withTls(embedded.tls()).acl()).isEqualTo(embedded.acl());
    }
}
