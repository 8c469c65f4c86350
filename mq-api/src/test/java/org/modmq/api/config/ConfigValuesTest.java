package org.modmq.api.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;

class ConfigValuesTest {

    private final ConfigValues config = ConfigValues.of(Map.of(
            "listenPort", " 10911 ", "slaveReadEnable", "TRUE", "brokerRole", "sync_master", "bad", "x1"));

    @Test
    void readsTypedValuesWithDefaults() {
        assertThat(config.intValue("listenPort", 0)).isEqualTo(10911);
        assertThat(config.bool("slaveReadEnable", false)).isTrue();
        assertThat(config.enumValue("brokerRole", BrokerRole.class, BrokerRole.ASYNC_MASTER))
                .isEqualTo(BrokerRole.SYNC_MASTER);
        assertThat(config.longValue("missing", 7L)).isEqualTo(7L);
    }

    @Test
    void malformedValuesNameTheKey() {
        assertThatThrownBy(() -> config.intValue("bad", 0)).isInstanceOf(ConfigException.class).hasMessageContaining("bad=x1");
        assertThatThrownBy(() -> config.enumValue("bad", BrokerRole.class, BrokerRole.ASYNC_MASTER))
                .hasMessageContaining("[SYNC_MASTER, ASYNC_MASTER, SLAVE]");
        assertThatThrownBy(() -> config.bool("bad", false)).hasMessageContaining("true, false");
    }
}
