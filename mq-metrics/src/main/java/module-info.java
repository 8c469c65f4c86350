/**
 * The Prometheus endpoint of modmq's servers: {@link org.modmq.metrics.MetricsEndpoint} serves
 * {@code /metrics} over the Prometheus Java client's HTTP server and hands out the
 * {@link org.modmq.api.spi.MetricsSink} the broker, name server, controller and plugins report through;
 * {@link org.modmq.metrics.MetricsConfig} reads RocketMQ's {@code metricsExporterType} and
 * {@code metricsPromExporter*} keys. No other module names a Prometheus type.
 */
module org.modmq.metrics {
    requires transitive org.modmq.api;
    requires io.prometheus.metrics.core;
    requires io.prometheus.metrics.model;
    requires io.prometheus.metrics.exporter.httpserver;
    // The exporter's HTTP server is the JDK's; an automatic module does not make the runtime resolve it.
    requires jdk.httpserver;
    requires org.slf4j;

    exports org.modmq.metrics;
}
