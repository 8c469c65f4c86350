package org.modmq.ha.pull;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.modmq.api.config.ConfigException;
import org.modmq.api.config.ConfigValues;

class PullConfigTest {

    @Test
    void defaultsFollowRocketMq() {
        PullConfig config = PullConfig.from(ConfigValues.empty());
        assertThat(config.listenHost()).isEqualTo("127.0.0.1");
        assertThat(config.listenPort()).isEqualTo(10912);
        assertThat(config.controllerMode()).isFalse();
        assertThat(config.syncFromLastFile()).isFalse();
        assertThat(config.asyncLearner()).isFalse();
        assertThat(config.transferBatchSize()).isEqualTo(32 * 1024);
        assertThat(config.heartbeatInterval()).isEqualTo(Duration.ofSeconds(5));
        assertThat(config.housekeepingInterval()).isEqualTo(Duration.ofSeconds(20));
        assertThat(config.segmentSize()).isEqualTo(1024L * 1024 * 1024);
        assertThat(config.tick()).isEqualTo(Duration.ofMillis(100));
    }

    @Test
    void readsKeys() {
        PullConfig config = PullConfig.from(ConfigValues.of(Map.of("listenPort", "20911", "brokerIP1", "10.0.0.1",
                "brokerIP2", "10.0.0.2", "haSendHeartbeatInterval", "50", "enableControllerMode", "true",
                "syncFromLastFile", "true", "asyncLearner", "true", "mappedFileSizeCommitLog", "1000")));
        assertThat(config.listenPort()).isEqualTo(20912);
        assertThat(config.listenHost()).isEqualTo("10.0.0.2");
        assertThat(config.controllerMode()).isTrue();
        assertThat(config.syncFromLastFile()).isTrue();
        assertThat(config.asyncLearner()).isTrue();
        assertThat(config.tick()).isEqualTo(Duration.ofMillis(10));
        assertThat(config.lastFileStart(2500)).isEqualTo(2000);
        assertThat(config.lastFileStart(2000)).isEqualTo(2000);
        assertThat(PullConfig.from(ConfigValues.of(Map.of("haListenPort", "0"))).listenPort()).isZero();
        assertThat(PullConfig.from(ConfigValues.of(Map.of("brokerIP1", "10.0.0.1"))).listenHost())
                .isEqualTo("10.0.0.1");
    }

    @Test
    void rejectsBadValuesNamingTheKey() {
        assertThatThrownBy(() -> PullConfig.from(ConfigValues.of(Map.of("haTransferBatchSize", "0"))))
                .isInstanceOf(ConfigException.class).hasMessageContaining("haTransferBatchSize");
        assertThatThrownBy(() -> PullConfig.from(ConfigValues.of(Map.of("haTransferBatchSize", "5000000"))))
                .isInstanceOf(ConfigException.class).hasMessageContaining("haTransferBatchSize");
        assertThatThrownBy(() -> PullConfig.from(ConfigValues.of(Map.of("haListenPort", "70000"))))
                .isInstanceOf(ConfigException.class).hasMessageContaining("haListenPort");
        assertThatThrownBy(() -> PullConfig.from(ConfigValues.of(Map.of("enableControllerMode", "maybe"))))
                .isInstanceOf(ConfigException.class).hasMessageContaining("enableControllerMode");
        assertThatThrownBy(() -> PullConfig.parseAddress("nohost")).isInstanceOf(ConfigException.class)
                .hasMessageContaining("host:port");
        assertThatThrownBy(() -> PullConfig.parseAddress("h:x")).isInstanceOf(ConfigException.class);
        assertThat(PullConfig.parseAddress("127.0.0.1:10912")).isEqualTo(new PullConfig.HostPort("127.0.0.1", 10912));
    }
}
