package org.modmq.launcher;

import java.util.Map;
import java.util.Objects;
import org.modmq.api.spi.MetricsSink;
import org.modmq.controller.ControllerServer;
import org.modmq.metrics.MetricsConfig;
import org.modmq.metrics.MetricsEndpoint;
import org.modmq.namesrv.NamesrvServer;
import org.modmq.remoting.netty.RpcLatencyMetrics;

/**
 * The {@code /metrics} endpoint of a name-server or controller process (the broker starts its own):
 * started from the process file's {@code metricsExporterType}/{@code metricsPromExporter*} keys, with
 * gauges read from the running servers at scrape time. Stateless.
 */
final class ServerMetrics {

    private ServerMetrics() {
    }

    /**
     * Starts the endpoint of a name server, and of the controller beside it when one runs (null: none).
     *
     * @throws java.io.UncheckedIOException when the port cannot be bound
     */
    static MetricsEndpoint namesrv(MetricsConfig config, NamesrvServer namesrv, ControllerServer controller) {
        Objects.requireNonNull(namesrv, "namesrv");
        MetricsEndpoint endpoint = MetricsEndpoint.start(config, Map.of("node_type", "namesrv",
                "node_id", namesrv.address()));
        MetricsSink sink = endpoint.sink();
        namesrv.setRpcObserver(new RpcLatencyMetrics(sink));
        sink.gaugeCallback("modmq_namesrv_live_brokers", "Brokers registered and not expired",
                out -> out.sample(namesrv.liveBrokerCount()));
        sink.gaugeCallback("modmq_namesrv_topics", "Topics with queue data on some registered broker",
                out -> out.sample(namesrv.topicCount()));
        if (controller != null) {
            controllerGauges(sink, controller);
        }
        return endpoint;
    }

    /**
     * Starts the endpoint of a controller peer.
     *
     * @throws java.io.UncheckedIOException when the port cannot be bound
     */
    static MetricsEndpoint controller(MetricsConfig config, ControllerServer controller) {
        Objects.requireNonNull(controller, "controller");
        MetricsEndpoint endpoint = MetricsEndpoint.start(config, Map.of("node_type", "controller",
                "node_id", controller.config().selfId()));
        controllerGauges(endpoint.sink(), controller);
        return endpoint;
    }

    private static void controllerGauges(MetricsSink sink, ControllerServer controller) {
        String group = controller.config().group();
        String self = controller.config().selfId();
        sink.gaugeCallback("modmq_controller_leader", "1 while this controller peer is the serving Raft leader",
                out -> out.sample(controller.isServingLeader() ? 1 : 0, group, self), "group", "peer_id");
        sink.gaugeCallback("modmq_controller_leader_known", "1 while this peer knows a leader (itself or another)",
                out -> out.sample(controller.leaderId() == null ? 0 : 1, group, self), "group", "peer_id");
        controller.reportTo(sink);
    }
}
