package org.modmq.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.InputStream;
import java.net.HttpURLConnection;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.modmq.api.spi.MetricsSink;

@Tag("integration")
@Timeout(30)
class MetricsEndpointTest {

    private static final MetricsConfig PROM = new MetricsConfig(MetricsConfig.ExporterType.PROM, "127.0.0.1", 0);
    private static final Map<String, String> NODE = Map.of("cluster", "DefaultCluster", "node_type", "broker",
            "node_id", "broker-a");

    /** GET /metrics over plain java.net (the module does not read java.net.http; the compat test uses it). */
    static String scrape(int port) throws IOException {
        HttpURLConnection connection = (HttpURLConnection) URI.create("http://127.0.0.1:" + port + "/metrics").toURL()
                .openConnection();
        connection.setConnectTimeout(5_000);
        connection.setReadTimeout(10_000);
        try (InputStream in = connection.getInputStream()) {
            assertThat(connection.getResponseCode()).isEqualTo(200);
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } finally {
            connection.disconnect();
        }
    }

    @Test
    void disabledBindsNothingAndDropsReports() {
        try (MetricsEndpoint endpoint = MetricsEndpoint.start(MetricsConfig.disabled(5557), NODE)) {
            assertThat(endpoint.port()).isEmpty();
            assertThat(endpoint.sink()).isSameAs(MetricsSink.NOOP);
            endpoint.sink().counter("x_total", "x", "topic").labels("t").inc(1);
        }
    }

    @Test
    void servesCountersGaugesHistogramsAndCallbacksWithTheNodeLabels() throws Exception {
        try (MetricsEndpoint endpoint = MetricsEndpoint.start(PROM, NODE)) {
            MetricsSink sink = endpoint.sink();
            MetricsSink.Counter in = sink.counter("rocketmq_messages_in_total", "messages stored", "topic")
                    .labels("TopicA");
            in.inc(3);
            in.inc(2);
            sink.gauge("modmq_broker_epoch", "epoch").labels().set(7);
            sink.histogram("modmq_send_latency_seconds", "send time", new double[] {0.001, 0.01, 0.1}, "topic")
                    .labels("TopicA").observe(0.005);
            sink.gaugeCallback("rocketmq_consumer_lag_messages", "lag",
                    out -> out.sample(42, "TopicA", "g1"), "topic", "consumer_group");
            sink.counterCallback("rocketmq_throughput_in_total", "bytes", out -> out.sample(100, "TopicA"), "topic");

            String text = scrape(endpoint.port().orElseThrow());

            assertThat(text).contains("rocketmq_messages_in_total{cluster=\"DefaultCluster\",node_id=\"broker-a\","
                    + "node_type=\"broker\",topic=\"TopicA\"} 5.0");
            assertThat(text).containsPattern("modmq_broker_epoch\\{[^}]*} 7.0");
            assertThat(text).containsPattern("modmq_send_latency_seconds_bucket\\{[^}]*le=\"0.01\"[^}]*} 1");
            assertThat(text).containsPattern("modmq_send_latency_seconds_count\\{[^}]*} 1");
            assertThat(text).containsPattern("rocketmq_consumer_lag_messages\\{[^}]*consumer_group=\"g1\"[^}]*} 42.0");
            assertThat(text).containsPattern("rocketmq_throughput_in_total\\{[^}]*} 100.0");
        }
    }

    @Test
    void askingAgainReturnsTheSameFamilyAndACallbackIsReplaced() throws Exception {
        try (MetricsEndpoint endpoint = MetricsEndpoint.start(PROM, NODE)) {
            MetricsSink sink = endpoint.sink();
            sink.counter("modmq_x_total", "x").labels().inc(1);
            sink.counter("modmq_x_total", "x").labels().inc(1);
            sink.gaugeCallback("modmq_replica_lag_bytes", "lag", out -> out.sample(1, "a"), "replica");
            sink.gaugeCallback("modmq_replica_lag_bytes", "lag", out -> out.sample(9, "b"), "replica");
            assertThatThrownBy(() -> sink.gauge("modmq_x_total", "x"))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("already registered");

            String text = scrape(endpoint.port().orElseThrow());

            assertThat(text).containsPattern("modmq_x_total\\{[^}]*} 2.0");
            assertThat(text).containsPattern("modmq_replica_lag_bytes\\{[^}]*replica=\"b\"[^}]*} 9.0");
            assertThat(text).doesNotContain("replica=\"a\"");
        }
    }

    @Test
    void aCallbackThatThrowsLeavesTheOtherFiguresScraped() throws Exception {
        try (MetricsEndpoint endpoint = MetricsEndpoint.start(PROM, NODE)) {
            MetricsSink sink = endpoint.sink();
            sink.gaugeCallback("modmq_broken", "broken", out -> {
                throw new IllegalStateException("store closed");
            });
            sink.gauge("modmq_fine", "fine").labels().set(1);

            assertThat(scrape(endpoint.port().orElseThrow())).containsPattern("modmq_fine\\{[^}]*} 1.0");
        }
    }

    @Test
    void aTakenPortIsAClearError() {
        try (MetricsEndpoint first = MetricsEndpoint.start(PROM, NODE)) {
            int port = first.port().orElseThrow();
            assertThatThrownBy(() -> MetricsEndpoint.start(new MetricsConfig(MetricsConfig.ExporterType.PROM,
                    "127.0.0.1", port), NODE))
                    .isInstanceOf(UncheckedIOException.class)
                    .hasMessageContaining("metrics endpoint cannot bind 127.0.0.1:" + port)
                    .hasMessageContaining("metricsPromExporterPort");
        }
    }
}
