package org.modmq.broker.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;
import org.modmq.api.config.ConfigException;
import org.modmq.api.config.ConfigValues;
import org.modmq.metrics.MetricsConfig;

class MetricsKeysConfigTest {

    private static BrokerConfig parse(Map<String, String> values) {
        return BrokerConfigParser.parse(ConfigValues.of(values), "broker.conf");
    }

    @Test
    void theKeysAreKnownAndOffByDefaultOnRocketMqsPort() {
        assertThat(BrokerConfigParser.knownKeys()).contains("metricsExporterType", "metricsPromExporterHost",
                "metricsPromExporterPort");
        BrokerConfig config = parse(Map.of());
        assertThat(config.metrics()).isEqualTo(MetricsConfig.disabled(5557));
        assertThat(config.effective()).containsEntry("metricsExporterType", "DISABLE")
                .containsEntry("metricsPromExporterPort", "5557");
    }

    @Test
    void promTurnsTheEndpointOn() {
        BrokerConfig config = parse(Map.of("metricsExporterType", "PROM", "metricsPromExporterHost", "0.0.0.0",
                "metricsPromExporterPort", "9100"));
        assertThat(config.metrics()).isEqualTo(new MetricsConfig(MetricsConfig.ExporterType.PROM, "0.0.0.0", 9100));
    }

    @Test
    void rocketMqsOtherExportersAndBadPortsStopStartUp() {
        assertThatThrownBy(() -> parse(Map.of("metricsExporterType", "OTLP_GRPC")))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("metricsExporterType=OTLP_GRPC in broker.conf is not supported")
                .hasMessageContaining("PROM");
        assertThatThrownBy(() -> parse(Map.of("metricsPromExporterPort", "70000")))
                .isInstanceOf(ConfigException.class).hasMessageContaining("metricsPromExporterPort=70000");
    }
}
