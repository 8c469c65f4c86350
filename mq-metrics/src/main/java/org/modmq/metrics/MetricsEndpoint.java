package org.modmq.metrics;

import io.prometheus.metrics.exporter.httpserver.HTTPServer;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalInt;
import java.util.concurrent.atomic.AtomicBoolean;
import org.modmq.api.spi.MetricsSink;
import org.modmq.metrics.prometheus.PrometheusMetricsSink;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One server's metrics: with {@code metricsExporterType=PROM} a registry of its own (never the client's
 * default one, so that servers in one JVM stay apart) served at {@code http://host:port/metrics} by the
 * Prometheus client's HTTP server; otherwise nothing is bound and {@link #sink()} is
 * {@link MetricsSink#NOOP}.
 *
 * <p>Threading: {@link #start} and {@link #close} are called by the owner; close is idempotent. The sink
 * is thread-safe; scrapes run on the HTTP server's own daemon threads.
 */
public final class MetricsEndpoint implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(MetricsEndpoint.class);

    private final MetricsSink sink;
    private final HTTPServer server;
    private final AtomicBoolean closed = new AtomicBoolean();

    private MetricsEndpoint(MetricsSink sink, HTTPServer server) {
        this.sink = sink;
        this.server = server;
    }

    /** An endpoint that exports nothing. */
    public static MetricsEndpoint disabled() {
        return new MetricsEndpoint(MetricsSink.NOOP, null);
    }

    /**
     * Starts serving when {@code config} says {@code PROM}.
     *
     * @param config      the server's metrics keys
     * @param constLabels labels every figure carries (RocketMQ's {@code cluster}, {@code node_type},
     *                    {@code node_id})
     * @throws UncheckedIOException when the port cannot be bound; the message names host, port and key
     */
    public static MetricsEndpoint start(MetricsConfig config, Map<String, String> constLabels) {
        Objects.requireNonNull(config, "config");
        Objects.requireNonNull(constLabels, "constLabels");
        if (!config.enabled()) {
            return disabled();
        }
        PrometheusRegistry registry = new PrometheusRegistry();
        PrometheusMetricsSink sink = new PrometheusMetricsSink(registry, constLabels);
        HTTPServer server;
        try {
            server = HTTPServer.builder().hostname(config.host()).port(config.port()).registry(registry)
                    .buildAndStart();
        } catch (IOException | RuntimeException e) {
            throw new UncheckedIOException(new IOException("metrics endpoint cannot bind " + config.host() + ":"
                    + config.port() + " (" + MetricsConfig.HOST_KEY + ", " + MetricsConfig.PORT_KEY + "): " + e, e));
        }
        LOG.info("metrics served at http://{}:{}/metrics", config.host(), server.getPort());
        return new MetricsEndpoint(sink, server);
    }

    /** Where the server and its plugins report. */
    public MetricsSink sink() {
        return sink;
    }

    /** The bound port, empty when disabled. */
    public OptionalInt port() {
        return server == null ? OptionalInt.empty() : OptionalInt.of(server.getPort());
    }

    /** Stops serving. Idempotent. */
    @Override
    public void close() {
        if (server != null && closed.compareAndSet(false, true)) {
            server.close();
        }
    }
}
