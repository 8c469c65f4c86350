package org.modmq.broker.config;

import org.modmq.api.config.ConfigException;
import org.modmq.metrics.MetricsConfig;

/**
 * Reads the broker's metrics keys (RocketMQ 5's {@code metricsExporterType}, {@code metricsPromExporterHost},
 * {@code metricsPromExporterPort}, default port {@value MetricsConfig#BROKER_PORT}) through the parser's
 * reader, so that they are known keys and show in {@code GET_BROKER_CONFIG}. Stateless.
 */
final class MetricsKeysConfig {

    private MetricsKeysConfig() {
    }

    /** @throws ConfigException on an exporter other than DISABLE or PROM, a blank host or a bad port */
    static MetricsConfig read(ConfigReader reader) {
        String type = reader.string(MetricsConfig.TYPE_KEY, MetricsConfig.ExporterType.DISABLE.name());
        String host = reader.string(MetricsConfig.HOST_KEY, MetricsConfig.DEFAULT_HOST).trim();
        int port = reader.intIn(MetricsConfig.PORT_KEY, MetricsConfig.BROKER_PORT, 0, 65535);
        MetricsConfig.ExporterType exporter = MetricsConfig.exporterType(type, reader.source());
        if (host.isEmpty()) {
            throw reader.bad(MetricsConfig.HOST_KEY, host, "a host name or address");
        }
        reader.remember(MetricsConfig.TYPE_KEY, exporter.name());
        return new MetricsConfig(exporter, host, port);
    }
}
