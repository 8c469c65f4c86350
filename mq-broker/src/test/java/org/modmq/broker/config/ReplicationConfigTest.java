package org.modmq.broker.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.modmq.api.config.BrokerRole;
import org.modmq.api.config.ConfigException;
import org.modmq.api.config.ConfigValues;

class ReplicationConfigTest {

    private static BrokerConfig parse(String... keyValues) {
        Map<String, String> values = new TreeMap<>();
        values.put("storePathRootDir", "store");
        for (int i = 0; i + 1 < keyValues.length; i += 2) {
            values.put(keyValues[i], keyValues[i + 1]);
        }
        return BrokerConfigParser.parse(ConfigValues.of(values), "broker.conf");
    }

    @Test
    void acceptsTheStrategyPluginKeysWithoutWarnings() {
        BrokerConfig config = parse("brokerRole", "SLAVE", "brokerId", "1", "haStrategy", "push",
                "haMasterAddress", "10.0.0.1:10912", "haTransferBatchSize", "65536", "haBindAddress", "0.0.0.0",
                "haPushWindowBytes", "1048576", "haReconnectMinMillis", "100", "haReconnectMaxMillis", "2000",
                "haSlaveFallbehindMax", "1024", "haSendHeartbeatInterval", "1000", "haHousekeepingInterval", "10000");
        assertThat(config.warnings()).isEmpty();
        assertThat(config.identity().role()).isEqualTo(BrokerRole.SLAVE);
        assertThat(config.replication().strategy()).isEqualTo("push");
        assertThat(config.replication().masterAddress()).contains("10.0.0.1:10912");
        assertThat(config.replication().slaveFallBehindMaxBytes()).isEqualTo(1024);
        assertThat(config.effective()).containsEntry("haPushWindowBytes", "1048576")
                .containsEntry("haMasterAddress", "10.0.0.1:10912");
    }

    @Test
    void masterAddressIsOptionalAndMustBeHostPort() {
        assertThat(parse().replication().masterAddress()).isEmpty();
        assertThat(parse("haMasterAddress", "").replication().masterAddress()).isEmpty();
        assertThatThrownBy(() -> parse("haMasterAddress", "10.0.0.1"))
                .isInstanceOf(ConfigException.class).hasMessageContaining("haMasterAddress")
                .hasMessageContaining("broker.conf");
    }

    @Test
    void haListenPortDefaultsToListenPortPlusOne() {
        assertThat(parse("listenPort", "20911").identity().haListenPort()).isEqualTo(20912);
        assertThat(parse().identity().haListenPort()).isEqualTo(10912);
        assertThat(parse("listenPort", "20911", "haListenPort", "0").identity().haListenPort()).isEqualTo(20912);
        assertThat(parse("listenPort", "20911", "haListenPort", "0").identity().haServerAddr())
                .isEqualTo("127.0.0.1:20912");
    }
}
