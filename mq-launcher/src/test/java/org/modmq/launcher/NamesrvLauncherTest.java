package org.modmq.launcher;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;
import org.modmq.api.config.ConfigException;

class NamesrvLauncherTest {

    @Test
    void splitsControllerKeysFromTheNameServersAndReadsTheSwitch() {
        ConfFiles.Split split = ConfFiles.split(Map.of("listenPort", "9876", "enableControllerInNamesrv", "true",
                "controllerDLegerPeers", "n0-127.0.0.1:9878", "kvConfigPath", "x"));
        assertThat(split.controllerEnabled()).isTrue();
        assertThat(split.own()).containsOnlyKeys("listenPort", "kvConfigPath");
        assertThat(split.controller()).containsOnlyKeys("controllerDLegerPeers");
        assertThat(ConfFiles.split(Map.of("listenPort", "1")).controllerEnabled()).isFalse();
        assertThatThrownBy(() -> ConfFiles.split(Map.of("enableControllerInNamesrv", "yes")))
                .isInstanceOf(ConfigException.class).hasMessageContaining("enableControllerInNamesrv=yes");
    }

    @Test
    void remotingBoundsGoToTheNameServerAndTheControllerBeside() {
        ConfFiles.Split split = ConfFiles.split(Map.of("enableControllerInNamesrv", "true",
                "remotingMaxConnections", "500", "controllerDLegerPeers", "n0-127.0.0.1:9878"));
        assertThat(split.own()).containsEntry("remotingMaxConnections", "500");
        assertThat(split.controller()).containsEntry("remotingMaxConnections", "500");
        ConfFiles.Split alone = ConfFiles.split(Map.of("remotingMaxConnections", "500"));
        assertThat(alone.own()).containsEntry("remotingMaxConnections", "500");
        assertThat(alone.controller()).isEmpty();
    }

    @Test
    void theAclKeysOfASharedFileStayTheNameServers() {
        ConfFiles.Split split = ConfFiles.split(Map.of("enableControllerInNamesrv", "true", "aclEnable", "true",
                "aclFile", "conf/plain_acl.yml", "controllerDLegerPeers", "n0-127.0.0.1:9878"));
        assertThat(split.own()).containsOnlyKeys("aclEnable", "aclFile");
        assertThat(split.controller()).containsOnlyKeys("controllerDLegerPeers");
    }

    @Test
    void printsSettingsAndRefusesBadArguments() {
        assertThat(NamesrvLauncher.run(new String[] {"-p"})).isZero();
        assertThat(NamesrvLauncher.run(new String[] {"-x"})).isEqualTo(1);
        assertThat(ControllerLauncher.run(new String[] {"-p"})).isZero();
        assertThat(ControllerLauncher.run(new String[] {"-c"})).isEqualTo(1);
    }
}
