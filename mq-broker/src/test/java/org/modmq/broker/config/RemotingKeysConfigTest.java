package org.modmq.broker.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.modmq.api.config.ConfigException;
import org.modmq.api.config.ConfigValues;

class RemotingKeysConfigTest {

    private static BrokerConfig parse(Map<String, String> values) {
        return BrokerConfigParser.parse(ConfigValues.of(values), "broker.conf");
    }

    @Test
    void readsTheBoundsOfTheRemotingPorts() {
        BrokerConfig config = parse(Map.of("remotingMaxFrameBytes", "8388608", "remotingMaxPendingFrameBytes",
                "33554432", "remotingFrameReceiveTimeoutMillis", "5000", "remotingMaxConnections", "64",
                "serverChannelMaxIdleTimeSeconds", "30"));
        assertThat(config.remoting().maxFrameBytes()).isEqualTo(8 * 1024 * 1024);
        assertThat(config.remoting().maxPendingFrameBytes()).isEqualTo(32 * 1024 * 1024);
        assertThat(config.remoting().frameReceiveTimeout()).isEqualTo(Duration.ofSeconds(5));
        assertThat(config.remoting().maxConnections()).isEqualTo(64);
        assertThat(config.remoting().idleSeconds()).isEqualTo(30);
        assertThat(config.effective()).containsEntry("remotingMaxConnections", "64")
                .containsEntry("serverChannelMaxIdleTimeSeconds", "30");
        var server = config.remoting().serverConfig("127.0.0.1", 0);
        assertThat(server.maxConnections()).isEqualTo(64);
        assertThat(server.maxFrameLength()).isEqualTo(8 * 1024 * 1024);
        assertThat(server.idleSeconds()).isEqualTo(30);
        assertThat(parse(Map.of()).effective()).containsEntry("remotingMaxFrameBytes", "16777216")
                .containsEntry("remotingMaxConnections", "20000").containsEntry("serverChannelMaxIdleTimeSeconds", "120");
    }

    @Test
    void refusesBadBoundsAtStartUpNamingKeyAndFile() {
        String[][] bad = {{"remotingMaxFrameBytes", "100"}, {"remotingMaxFrameBytes", "x"},
            {"remotingMaxPendingFrameBytes", "1024"}, {"remotingFrameReceiveTimeoutMillis", "-1"},
            {"remotingMaxConnections", "0"}, {"serverChannelMaxIdleTimeSeconds", "86401"}, {"brokerPermission", "8"}};
        for (String[] entry : bad) {
            assertThatThrownBy(() -> parse(Map.of(entry[0], entry[1])))
                    .as(entry[0] + "=" + entry[1]).isInstanceOf(ConfigException.class)
                    .hasMessageContaining(entry[0] + "=" + entry[1]).hasMessageContaining("broker.conf");
        }
    }

    @Test
    void knowsEveryKeyItReadsAndEveryIgnoredOne() {
        java.util.Set<String> known = new java.util.TreeSet<>(BrokerConfigParser.knownKeys());
        known.addAll(PluginCatalog.installed().declaredKeys());
        assertThat(BrokerConfigParser.knownKeys()).contains("remotingMaxConnections", "listenPort", "storeBackend",
                "haMasterAddress", "aclEnable");
        assertThat(known).containsAll(parse(Map.of()).effective().keySet());
    }
}
