package org.modmq.broker.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;
import org.modmq.api.config.ConfigException;
import org.modmq.api.config.ConfigValues;

class TimerConfigTest {

    private static BrokerConfig parse(Map<String, String> values) {
        return BrokerConfigParser.parse(ConfigValues.of(values), "test.conf");
    }

    @Test
    void defaultsAreRocketMqsExceptTheTighterPrecision() {
        BrokerConfig config = parse(Map.of());
        assertThat(config.timer()).isEqualTo(TimerConfig.defaults());
        assertThat(config.timer().maxDelaySec()).isEqualTo(259_200);
        assertThat(config.timer().precisionMs()).isEqualTo(100);
        assertThat(config.effective()).containsEntry("timerWheelEnable", "true").containsEntry("timerPrecisionMs", "100");
    }

    @Test
    void readsTheTimerKeysAndIgnoresRocketMqsWheelTuning() {
        BrokerConfig config = parse(Map.of("timerWheelEnable", "false", "timerMaxDelaySec", "60",
                "timerPrecisionMs", "50", "timerFlushIntervalMs", "200", "timerStopDequeue", "true",
                "timerRollWindowSlot", "172800"));
        assertThat(config.timer()).isEqualTo(new TimerConfig(false, 60, 50, 200, false, true));
        assertThat(config.warnings()).singleElement().asString().contains("timerRollWindowSlot");
    }

    @Test
    void aPrecisionOutsideTenToOneThousandStopsStartUp() {
        assertThatThrownBy(() -> parse(Map.of("timerPrecisionMs", "5")))
                .isInstanceOf(ConfigException.class).hasMessageContaining("timerPrecisionMs=5");
    }
}
