package org.modmq.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.modmq.api.config.ConfigException;

class MetricsConfigTest {

    private static MetricsConfig parse(Map<String, String> values) {
        return MetricsConfig.parse(key -> Optional.ofNullable(values.get(key)), MetricsConfig.BROKER_PORT, "broker.conf");
    }

    @Test
    void isOffByDefaultOnLoopbackAndTheServersPort() {
        MetricsConfig config = parse(Map.of());
        assertThat(config.enabled()).isFalse();
        assertThat(config.host()).isEqualTo("127.0.0.1");
        assertThat(config.port()).isEqualTo(5557);
    }

    @Test
    void promSwitchesItOnWhateverTheCase() {
        MetricsConfig config = parse(Map.of("metricsExporterType", "prom", "metricsPromExporterPort", "0",
                "metricsPromExporterHost", "127.0.0.1"));
        assertThat(config.enabled()).isTrue();
        assertThat(config.port()).isZero();
    }

    @Test
    void refusesRocketMqsOtherExportersSayingOnlyPromIsSupported() {
        assertThatThrownBy(() -> parse(Map.of("metricsExporterType", "OTLP_GRPC")))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("metricsExporterType=OTLP_GRPC in broker.conf is not supported")
                .hasMessageContaining("only to Prometheus (PROM)");
        assertThatThrownBy(() -> parse(Map.of("metricsExporterType", "LOG")))
                .isInstanceOf(ConfigException.class).hasMessageContaining("not supported");
        assertThatThrownBy(() -> parse(Map.of("metricsExporterType", "JMX")))
                .isInstanceOf(ConfigException.class).hasMessageContaining("expected one of [DISABLE, PROM]");
    }

    @Test
    void refusesABadPort() {
        assertThatThrownBy(() -> parse(Map.of("metricsPromExporterPort", "65536")))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("metricsPromExporterPort=65536 in broker.conf is not valid");
        assertThatThrownBy(() -> parse(Map.of("metricsPromExporterPort", "x")))
                .isInstanceOf(ConfigException.class).hasMessageContaining("[0, 65535]");
    }

    @Test
    void takeRemovesTheKeysFromTheServersMap() {
        Map<String, String> values = new HashMap<>(Map.of("listenPort", "9876", "metricsExporterType", "PROM"));
        MetricsConfig config = MetricsConfig.take(values, MetricsConfig.NAMESRV_PORT, "namesrv.conf");
        assertThat(config.enabled()).isTrue();
        assertThat(config.port()).isEqualTo(5558);
        assertThat(values).containsOnlyKeys("listenPort");
    }
}
